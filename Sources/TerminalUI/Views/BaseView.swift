/// A `ModellableView` to subclass: it owns `model` and `canvas`, calls `update(oldModel:)`
/// when the model changes, and repaints everything on `layout(size:)`.
///
/// A subclass overrides `update(oldModel:)` (and, where it has them, `handle(_:)`,
/// `preferredSize(in:)` and `layout(size:)`) and sets `cursor` when it shows one:
///
///     final class CounterView: BaseView<CounterModel> {
///         override func update(oldModel: CounterModel?) {
///             guard let model else { return }
///             canvas.writeLine("count: \(model.count)", row: 0)
///         }
///     }
@MainActor
open class BaseView<ViewModel: Equatable>: ModellableView {
    /// The model shown; setting a different one calls `update(oldModel:)`.
    public var model: ViewModel? {
        didSet { if model != oldValue { update(oldModel: oldValue) } }
    }
    /// The view's cells, of the size of the last `layout(size:)`.
    public var canvas = Canvas(size: .zero)
    /// Where the terminal's cursor belongs in the view (an input field), nil to hide it; a
    /// subclass sets it as it paints.
    public var cursor: Position?

    /// A view with no model yet and an empty canvas.
    public init() {}

    /// Repaints what differs between `oldModel` and `model`; everything when `oldModel` is
    /// nil. The base paints nothing.
    open func update(oldModel: ViewModel?) {}

    /// A new blank canvas of `size`, then everything painted again.
    open func layout(size: Size) {
        canvas = Canvas(size: size)
        update(oldModel: nil)
    }

    /// Turns `key` into an interaction callback; the base has no use for any key.
    open func handle(_ key: Key) -> Bool { false }

    /// The size the view asks for when presented modally: by default all of `available`.
    open func preferredSize(in available: Size) -> Size { available }
}
