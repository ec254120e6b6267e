/// A view that shows a view model: Tempura's `ModellableView`, drawing into a canvas.
///
/// A view holds `model` and its own `canvas`. Setting `model` calls `update(oldModel:)`,
/// which repaints only what differs from the old model. Subclassing `BaseView` gives a view
/// `model`, `canvas` and that call; a type conforming on its own declares
/// `var model: ViewModel? { didSet { if model != oldValue { update(oldModel: oldValue) } } }`.
/// `layout(size:)` gives the view a new size; the view then repaints everything, which is
/// `update(oldModel: nil)`. The screen copies the canvas into the frame and the renderer
/// writes only the cells that changed, so a view repainting one row costs one row.
///
/// Views never dispatch: they turn keys into interaction callbacks (`didToggleItem`, …)
/// that their screen wires to actions and navigation.
@MainActor
public protocol ModellableView: AnyObject {
    /// What the view shows; `nil` before the first model.
    associatedtype ViewModel: Equatable

    /// The model shown. Setting it repaints what changed (`update(oldModel:)`).
    var model: ViewModel? { get set }
    /// The view's cells, of the size of the last `layout(size:)`.
    var canvas: Canvas { get set }

    /// Gives the view `size` and repaints all of it.
    func layout(size: Size)
    /// Repaints what differs between `oldModel` and `model`; everything when `oldModel` is nil.
    func update(oldModel: ViewModel?)
    /// Turns `key` into an interaction callback; false when the view has no use for it.
    func handle(_ key: Key) -> Bool
    /// Where the terminal's cursor belongs in the view (an input field), nil to hide it.
    var cursor: Position? { get }
    /// The size the view asks for when presented modally within `available`.
    func preferredSize(in available: Size) -> Size
}

extension ModellableView {
    /// A new blank canvas of `size`, then everything painted again.
    public func layout(size: Size) {
        canvas = Canvas(size: size)
        update(oldModel: nil)
    }

    /// Views without interactions ignore every key.
    public func handle(_ key: Key) -> Bool { false }

    /// Most views show no cursor.
    public var cursor: Position? { nil }

    /// Views take all the room they are given unless they say otherwise.
    public func preferredSize(in available: Size) -> Size { available }
}
