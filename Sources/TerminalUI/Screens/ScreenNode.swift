/// A screen in the tree the navigator shows: its lifecycle, its subscriptions, its children.
/// Subclass `Screen`, which adds the view and the store; this class holds what every screen
/// has whatever its view (Tempura's `ViewController` minus the view, with BothamUI's hooks).
///
/// ```
///            load (once)        appear                       disappear
///  created ──────────────▶ didLoad ──▶ willAppear ─ connect ─▶ didAppear
///                                      willDisappear ─ disconnect ─▶ didDisappear
/// ```
///
/// While visible, a screen with `shouldConnectWhenVisible` (the default) is connected: every
/// `Subscription` from `subscriptions()` is open. Hidden, none is. Children (containment)
/// appear and disappear with their parent.
@MainActor
open class ScreenNode {
    /// Whether `didLoad` has run.
    public private(set) var isLoaded = false
    /// Whether the screen is on screen (visible in the navigator, or a visible parent's child).
    public private(set) var isVisible = false
    /// Whether its subscriptions are open.
    public private(set) var isConnected = false
    /// Whether becoming visible connects and becoming hidden disconnects (Tempura's
    /// `shouldConnectWhenVisible`). When false, call `connect()` and `disconnect()` yourself.
    public var shouldConnectWhenVisible = true
    /// The name routes use for this screen: the route it was shown as, or the type's name.
    public var routeIdentifier: String
    /// The screen hosting this one in a region of its view.
    public private(set) weak var parent: ScreenNode?
    /// Screens hosted in regions of this one's view, in the order they were added.
    public private(set) var children: [ScreenNode] = []
    /// The child that gets keys first (see `handleKey`).
    public var focusedChild: ScreenNode?
    /// The size given by the last layout.
    public private(set) var size: Size = .zero

    /// The screen whose route pushed or presented this one.
    public internal(set) weak var presenter: ScreenNode?
    weak var owningNavigator: Navigator?
    private var regions: [ObjectIdentifier: ContainerRegion] = [:]
    private var subscriptionTasks: [Task<Void, Never>] = []

    /// A screen, not yet loaded.
    public init() {
        routeIdentifier = ""
        routeIdentifier = String(describing: type(of: self))
    }

    /// A screen that goes away while connected ends its subscriptions with it.
    isolated deinit {
        for task in subscriptionTasks { task.cancel() }
    }

    // MARK: Lifecycle hooks, all empty here.

    /// Once, before `didLoad`: wire the view's interaction callbacks here (Tempura's
    /// `setupInteraction`).
    open func setupInteraction() {}
    /// Once, the first time the screen is about to appear.
    open func didLoad() {}
    /// The screen is about to become visible; subscriptions open right after.
    open func willAppear() {}
    /// The screen is visible and connected.
    open func didAppear() {}
    /// The screen is about to be hidden.
    open func willDisappear() {}
    /// The screen is hidden and its subscriptions are closed.
    open func didDisappear() {}
    /// The screen was laid out at a new size (a resize of the terminal, or of its region).
    open func didResize(to size: Size) {}
    /// The terminal window gained or lost focus.
    open func didChangeFocus(_ focused: Bool) {}
    /// Something this screen started failed (a dispatch, a feed). By default the parent, or
    /// else the presenting screen, hears of it; at the root, unless the root screen shows it
    /// its own way (an override), the navigator shows it on the bottom row until the next key.
    open func didFail(_ error: any Error) {
        if let above = parent ?? presenter {
            above.didFail(error)
        } else {
            owningNavigator?.show(failure: error)
        }
    }

    /// What the screen listens to while connected. Called on every connect, so it may depend
    /// on the screen's state (a filter); call `resubscribe()` when that state changes.
    open func subscriptions() -> [Subscription] { [] }

    // MARK: The view, provided by `Screen`.

    var viewCanvas: Canvas { Canvas(size: .zero) }
    func layoutView(size: Size) {}
    func viewHandles(_ key: Key) -> Bool { false }
    var viewCursor: Position? { nil }
    func preferredViewSize(in available: Size) -> Size { available }
}

extension ScreenNode {
    /// The navigator showing this screen or its parent.
    public var navigator: Navigator? { owningNavigator ?? parent?.navigator }

    /// Opens the subscriptions (does nothing if already connected).
    public func connect() {
        guard !isConnected else { return }
        isConnected = true
        subscriptionTasks = subscriptions().map { subscription in
            subscription.run { [weak self] in self?.setNeedsRender() }
        }
    }

    /// Closes the subscriptions (does nothing if not connected).
    public func disconnect() {
        guard isConnected else { return }
        isConnected = false
        for task in subscriptionTasks { task.cancel() }
        subscriptionTasks = []
    }

    /// Closes and reopens the subscriptions, if connected: after the state they depend on
    /// changed.
    public func resubscribe() {
        guard isConnected else { return }
        disconnect()
        connect()
    }

    /// Asks for a new frame (after a change not caused by a key, which renders anyway).
    public func setNeedsRender() {
        navigator?.setNeedsRender()
    }

    /// Shows `route`, as declared by a visible screen's `navigationConfiguration`.
    public func show(_ route: String, context: (any Sendable)? = nil) throws(NavigationError) {
        guard let navigator else { throw .notNavigating(route) }
        try navigator.show(route, context: context)
    }

    /// Hides `route`, as declared by a visible screen's `navigationConfiguration`.
    public func hide(_ route: String) throws(NavigationError) {
        guard let navigator else { throw .notNavigating(route) }
        try navigator.hide(route)
    }

    /// Ends the program (the terminal is restored by whoever runs it).
    public func requestQuit() {
        navigator?.requestQuit()
    }

    func loadIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        setupInteraction()
        didLoad()
    }

    func appear() {
        guard !isVisible else { return }
        loadIfNeeded()
        willAppear()
        isVisible = true
        if shouldConnectWhenVisible { connect() }
        for child in children { child.appear() }
        didAppear()
    }

    func disappear() {
        guard isVisible else { return }
        willDisappear()
        for child in children.reversed() { child.disappear() }
        isVisible = false
        if shouldConnectWhenVisible { disconnect() }
        didDisappear()
    }

    /// Lays the view out at `size`, then each child at its region's size. A screen is loaded
    /// before its first layout.
    func layout(size: Size) {
        loadIfNeeded()
        self.size = size
        layoutView(size: size)
        for child in children {
            child.layout(size: region(of: child).frame.size)
        }
        didResize(to: size)
    }

    /// The key goes to the focused child first (the responder chain), then to this view.
    func handleKey(_ key: Key) -> Bool {
        if let focusedChild, focusedChild.handleKey(key) { return true }
        return viewHandles(key)
    }

    func focusChanged(_ focused: Bool) {
        didChangeFocus(focused)
        for child in children { child.focusChanged(focused) }
    }

    /// Draws the view at `origin` and each child in its region, all within `clip`.
    func compose(into canvas: inout Canvas, at origin: Position, clip: Rect) {
        canvas.draw(viewCanvas, at: origin, clip: clip)
        for child in children {
            let frame = region(of: child).frame
            if child.size != frame.size { child.layout(size: frame.size) }
            let placed = frame.offset(by: origin)
            child.compose(into: &canvas, at: placed.origin, clip: placed.intersection(clip))
        }
    }

    /// Where the cursor goes, in the coordinates `origin` is in: the focused child's, else
    /// this view's.
    func cursorPosition(at origin: Position) -> Position? {
        if let focusedChild,
            let position = focusedChild.cursorPosition(at: region(of: focusedChild).frame.origin.offset(by: origin))
        {
            return position
        }
        return viewCursor.map { $0.offset(by: origin) }
    }

    func region(of child: ScreenNode) -> ContainerRegion {
        regions[ObjectIdentifier(child)]!
    }

    func setRegion(_ region: ContainerRegion?, of child: ScreenNode) {
        regions[ObjectIdentifier(child)] = region
    }

    func adopt(_ child: ScreenNode) {
        child.parent = self
        children.append(child)
    }

    func abandon(_ child: ScreenNode) {
        child.parent = nil
        children.removeAll { $0 === child }
        if focusedChild === child { focusedChild = nil }
    }
}
