/// A part of a view where a child screen's view is shown: Tempura's `ContainerView`.
///
/// The parent view owns its regions and sets their frames when it lays out; the parent
/// screen hosts a child in a region with `add(_:in:)`. The parent's `update(oldModel:)` never
/// paints inside a region: the child's view does.
@MainActor
public final class ContainerRegion {
    /// Where the region lies in its view, set by the view's layout. Empty hides the child.
    public var frame: Rect

    /// A region, empty until the view lays it out.
    public init(frame: Rect = Rect(origin: .origin, size: .zero)) {
        self.frame = frame
    }
}
