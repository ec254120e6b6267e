/// The UI loop: the one place that applies events (keys, resizes, focus, models arriving
/// from subscriptions) and renders frames.
///
/// Everything runs on the main actor. Subscriptions change their screens' models there and
/// ask for a frame; `run` renders once per pass of the loop, whatever arrived, so a burst of
/// updates costs one frame. Tests drive `handle(_:)` and `renderIfNeeded()` directly on a fake
/// terminal.
@MainActor
public final class TerminalApp {
    /// The stack of screens.
    public let navigator: Navigator
    private let terminal: any TerminalDevice
    private var renderer: FrameRenderer
    private var needsRender = true
    private var wakeScheduled = false
    private var quitRequested = false
    private let inbox: AsyncStream<Inbox>
    private let inboxContinuation: AsyncStream<Inbox>.Continuation

    /// What the loop waits for.
    private enum Inbox: Sendable {
        case terminal(TerminalEvent)
        case render
    }

    /// An app showing `root` on `terminal`; `colors` false draws no attributes (`NO_COLOR`).
    public init(root: ScreenNode, terminal: any TerminalDevice, colors: Bool) {
        navigator = Navigator(root: root)
        self.terminal = terminal
        renderer = FrameRenderer(colors: colors)
        (inbox, inboxContinuation) = AsyncStream.makeStream(of: Inbox.self)
        navigator.onNeedsRender = { [unowned self] in setNeedsRender() }
        navigator.onQuit = { [unowned self] in quit() }
    }

    /// Whether `quit()` was called (by a screen, Ctrl-C, or the end of input).
    public var hasQuit: Bool { quitRequested }

    /// Whether `NO_COLOR` asks for no colours or attributes (set and not empty, as
    /// no-color.org defines it), given the environment variable's value.
    public static func colorsAllowed(noColor: String?) -> Bool {
        noColor?.isEmpty ?? true
    }

    /// Lays out the root screen at the terminal's size, makes it appear, draws the first frame.
    public func start() {
        navigator.start(size: terminal.size)
        renderIfNeeded()
    }

    /// Applies one terminal event. Keys no screen uses are dropped, except Ctrl-C, which quits.
    public func handle(_ event: TerminalEvent) {
        switch event {
        case .key(let key):
            if !navigator.handle(key) && key == .control("c") { quit() }
        case .resize(let size):
            navigator.resize(to: size)
            renderer.invalidate()
        case .focus(let focused):
            navigator.focusChanged(focused)
        case .inputClosed:
            quit()
        }
        needsRender = true
    }

    /// Writes the changes since the last frame, if anything asked for one.
    public func renderIfNeeded() {
        guard needsRender else { return }
        needsRender = false
        let (frame, cursor) = navigator.compose()
        let bytes = renderer.render(frame, cursor: cursor)
        if !bytes.isEmpty { terminal.write(bytes) }
    }

    /// The frame as it would be drawn now (for snapshots of whole screens).
    public func currentFrame() -> Canvas {
        navigator.compose().frame
    }

    /// Asks for a frame on the next pass of the loop.
    public func setNeedsRender() {
        needsRender = true
        guard !wakeScheduled else { return }
        wakeScheduled = true
        inboxContinuation.yield(.render)
    }

    /// Ends `run` after the current event.
    public func quit() {
        quitRequested = true
        inboxContinuation.yield(.render)
    }

    /// Runs the loop on `events` until a screen quits, Ctrl-C, or the input ends; then every
    /// screen disappears. Restoring the terminal is the caller's job (it opened it).
    public func run(events: AsyncStream<TerminalEvent>) async {
        let forwarding = Task { [inboxContinuation] in
            for await event in events { inboxContinuation.yield(.terminal(event)) }
            inboxContinuation.yield(.terminal(.inputClosed))
        }
        defer { forwarding.cancel() }
        start()
        for await message in inbox {
            switch message {
            case .terminal(let event): handle(event)
            case .render: wakeScheduled = false
            }
            if quitRequested { break }
            renderIfNeeded()
        }
        navigator.stop()
    }
}
