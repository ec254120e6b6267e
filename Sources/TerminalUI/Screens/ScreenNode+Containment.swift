extension ScreenNode {
    /// Hosts `child` in `region` of this screen's view (Tempura's `add(_:in:)`): it is laid
    /// out at the region's size, drawn there, and appears and disappears with this screen.
    public func add(_ child: ScreenNode, in region: ContainerRegion) {
        precondition(child.parent == nil && child.owningNavigator == nil, "a screen has one place: remove it first")
        adopt(child)
        setRegion(region, of: child)
        if size != .zero { child.layout(size: region.frame.size) }
        if isVisible { child.appear() }
        setNeedsRender()
    }

    /// Stops hosting `child`: it disappears (closing its subscriptions) and is no longer drawn.
    public func remove(_ child: ScreenNode) {
        guard child.parent === self else { return }
        child.disappear()
        abandon(child)
        setRegion(nil, of: child)
        setNeedsRender()
    }
}
