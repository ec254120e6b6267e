/// The stack of screens on the terminal: the root, pushed screens, modal screens on top.
///
/// ```
///  entries:  root ─ push ─ modal ─ modal
///  visible:         └─────────────────┘   from the last full-screen entry to the top
///  keys go to:                    └─┘    the top screen (then its focused children)
/// ```
///
/// `show` asks the visible screens, top first, for the instruction they declared
/// (`RoutableWithConfiguration`); `hide` asks the screen to hide and those below it (a
/// pushed screen covers the one that declared how to pop it). Then the navigator moves to
/// the new stack: screens no longer visible
/// disappear (top first), newly visible ones load (once), are laid out, and appear (bottom
/// first).
@MainActor
public final class Navigator {
    /// How an entry was put on the stack.
    public enum Presentation: Sendable {
        /// The first screen, never hidden.
        case root
        /// A full-screen screen over the ones below.
        case push
        /// A screen over the ones below, which stay visible.
        case modal
    }

    private struct Entry {
        let screen: ScreenNode
        let presentation: Presentation
    }

    private var entries: [Entry]
    /// The terminal's size.
    public private(set) var size: Size = .zero
    /// The failure the root screen left to the navigator to show, until the next key.
    public private(set) var failure: String?
    /// Called when a screen asks for a new frame.
    public var onNeedsRender: (@MainActor () -> Void)?
    /// Called when a screen asks to end the program.
    public var onQuit: (@MainActor () -> Void)?

    /// A navigator whose stack is `root` alone (nothing appears until `start`).
    public init(root: ScreenNode) {
        entries = [Entry(screen: root, presentation: .root)]
        root.owningNavigator = self
    }

    /// The route identifiers of the stack, bottom first.
    public var routes: [String] { entries.map(\.screen.routeIdentifier) }
    /// The screen that gets keys.
    public var topScreen: ScreenNode { entries[entries.count - 1].screen }
    /// The screens on the terminal, bottom first.
    public var visibleScreens: [ScreenNode] { visible(entries).map(\.screen) }

    /// Lays the stack out at `size` and makes it appear.
    public func start(size: Size) {
        self.size = size
        for entry in visible(entries) {
            entry.screen.layout(size: rect(for: entry).size)
            entry.screen.appear()
        }
    }

    /// Makes every screen disappear, top first (closing their subscriptions).
    public func stop() {
        for entry in visible(entries).reversed() { entry.screen.disappear() }
    }

    /// Carries out `.show(route)` as the topmost visible screen declaring it says.
    public func show(_ route: String, context: (any Sendable)? = nil) throws(NavigationError) {
        let request = NavigationRequest.show(route)
        let instruction = try instruction(for: request, among: visibleScreens.reversed())
        guard !entries.contains(where: { $0.screen.routeIdentifier == route }) else { throw .alreadyShown(route) }
        let presentation: Presentation
        let make: @MainActor ((any Sendable)?) -> ScreenNode?
        switch instruction.instruction {
        case .push(let builder):
            presentation = .push
            make = builder
        case .presentModally(let builder):
            presentation = .modal
            make = builder
        case .pop, .dismissModally:
            throw .instructionMismatch(request)
        }
        guard let screen = make(context) else { throw .noScreen(route) }
        screen.routeIdentifier = route
        screen.presenter = instruction.declaredBy
        transition(to: entries + [Entry(screen: screen, presentation: presentation)])
    }

    /// Carries out `.hide(route)`: the screen shown as `route` and everything above it go.
    public func hide(_ route: String) throws(NavigationError) {
        guard let index = entries.firstIndex(where: { $0.screen.routeIdentifier == route }), index > 0 else {
            throw .notShown(route)
        }
        let request = NavigationRequest.hide(route)
        let candidates = entries[...index].reversed().map(\.screen)
        switch (try instruction(for: request, among: candidates).instruction, entries[index].presentation) {
        case (.pop, .push), (.dismissModally, .modal):
            transition(to: Array(entries[..<index]))
        default:
            throw .instructionMismatch(request)
        }
    }

    /// Lays everything out at the new size.
    public func resize(to size: Size) {
        self.size = size
        for entry in entries {
            entry.screen.layout(size: rect(for: entry).size)
        }
    }

    /// Gives `key` to the top screen; false if nothing used it. A failure shown goes away.
    public func handle(_ key: Key) -> Bool {
        if failure != nil {
            failure = nil
            setNeedsRender()
        }
        return topScreen.handleKey(key)
    }

    /// Shows `error` on the bottom row of the frame until the next key (the root screen's
    /// default `didFail`).
    func show(failure error: any Error) {
        failure = "! " + String(describing: error)
        setNeedsRender()
    }

    /// Tells the visible screens the window gained or lost focus.
    public func focusChanged(_ focused: Bool) {
        for screen in visibleScreens { screen.focusChanged(focused) }
    }

    /// The frame: visible screens drawn bottom first, each at its place; and the top
    /// screen's cursor.
    public func compose() -> (frame: Canvas, cursor: Position?) {
        var frame = Canvas(size: size)
        let shown = visible(entries)
        for entry in shown {
            let place = rect(for: entry)
            if entry.screen.size != place.size { entry.screen.layout(size: place.size) }
            entry.screen.compose(into: &frame, at: place.origin, clip: place)
        }
        if let failure, size.rows > 0 {
            frame.writeLine(failure, row: size.rows - 1, style: Style(bold: true, reverse: true))
        }
        let top = shown.last!
        return (frame, top.screen.cursorPosition(at: rect(for: top).origin))
    }

    func setNeedsRender() {
        onNeedsRender?()
    }

    func requestQuit() {
        onQuit?()
    }

    /// The instruction for `request` from the first of `screens` (or their children)
    /// declaring it, and that screen.
    private func instruction(for request: NavigationRequest, among screens: [ScreenNode]) throws(NavigationError) -> (
        instruction: NavigationInstruction, declaredBy: ScreenNode
    ) {
        for screen in screens {
            for candidate in Self.withDescendants(screen) {
                if let routable = candidate as? any RoutableWithConfiguration,
                    let instruction = routable.navigationConfiguration[request]
                {
                    return (instruction, candidate)
                }
            }
        }
        throw .unknownRoute(request, visible: visibleScreens.map(\.routeIdentifier))
    }

    private static func withDescendants(_ screen: ScreenNode) -> [ScreenNode] {
        [screen] + screen.children.flatMap(withDescendants)
    }

    private func visible(_ entries: [Entry]) -> ArraySlice<Entry> {
        let base = entries.lastIndex(where: { $0.presentation != .modal }) ?? 0
        return entries[base...]
    }

    private func rect(for entry: Entry) -> Rect {
        let bounds = Rect(origin: .origin, size: size)
        guard entry.presentation == .modal else { return bounds }
        return bounds.centered(entry.screen.preferredViewSize(in: size))
    }

    private func transition(to newEntries: [Entry]) {
        let before = visible(entries).map(\.screen)
        let after = visible(newEntries).map(\.screen)
        for screen in before.reversed() where !after.contains(where: { $0 === screen }) {
            screen.disappear()
        }
        for entry in entries where !newEntries.contains(where: { $0.screen === entry.screen }) {
            entry.screen.owningNavigator = nil
        }
        entries = newEntries
        for entry in visible(entries) where !before.contains(where: { $0 === entry.screen }) {
            entry.screen.owningNavigator = self
            if size != .zero { entry.screen.layout(size: rect(for: entry).size) }
            entry.screen.appear()
        }
        setNeedsRender()
    }
}
