import SyncLock
import TerminalUI

/// A feed whose subscriptions the test can count and push values into.
final class FeedProbe: Sendable {
    private struct State {
        var opened = 0
        var closed = 0
        var continuations: [AsyncThrowingStream<String, any Error>.Continuation] = []
    }

    private let state = Locked(State())

    /// The feed screens subscribe to.
    var feed: Feed<String> {
        Feed("probe") { [state] in
            AsyncThrowingStream { continuation in
                continuation.onTermination = { _ in state.withLock { $0.closed += 1 } }
                state.withLock {
                    $0.opened += 1
                    $0.continuations.append(continuation)
                }
            }
        }
    }

    var opened: Int { state.withLock { $0.opened } }
    var closed: Int { state.withLock { $0.closed } }
    /// Subscriptions open now.
    var open: Int { state.withLock { $0.opened - $0.closed } }

    /// Sends `value` to every open subscription.
    func send(_ value: String) {
        for continuation in state.withLock({ $0.continuations }) { continuation.yield(value) }
    }

    /// Fails every open subscription.
    func fail(_ error: any Error) {
        for continuation in state.withLock({ $0.continuations }) { continuation.finish(throwing: error) }
    }
}

/// A store that records actions and refuses those named "refuse".
final class RecordingStore: ScreenStore {
    struct Refused: Error, Equatable {}
    private let received = Locked<[String]>([])

    var actions: [String] { received.withLock { $0 } }

    func dispatch(_ action: String) async throws {
        received.withLock { $0.append(action) }
        if action == "refuse" { throw Refused() }
    }
}

/// A view that shows its text on the first row, a region below for a child, and turns `x`
/// into `didPressX`.
final class LabelView: ModellableView {
    var model: String? { didSet { if model != oldValue { update(oldModel: oldValue) } } }
    var canvas = Canvas(size: .zero)
    let childRegion = ContainerRegion()
    var didPressX: (() -> Void)?
    var updates = 0
    var preferred: Size?

    func layout(size: Size) {
        canvas = Canvas(size: size)
        childRegion.frame = Rect(row: 1, column: 2, columns: max(0, size.columns - 2), rows: max(0, size.rows - 1))
        update(oldModel: nil)
    }

    func update(oldModel: String?) {
        updates += 1
        canvas.writeLine(model ?? "", row: 0)
    }

    func handle(_ key: Key) -> Bool {
        guard key == .character("x") else { return false }
        didPressX?()
        return true
    }

    func preferredSize(in available: Size) -> Size { preferred ?? available }
}

/// A screen that logs its lifecycle into a shared journal and shows what its probe sends.
final class LoggingScreen: Screen<LabelView, RecordingStore>, RoutableWithConfiguration {
    let name: String
    let probe: FeedProbe
    let journal: Journal
    var routes: [NavigationRequest: NavigationInstruction] = [:]
    var failures: [String] = []

    init(_ name: String, probe: FeedProbe = FeedProbe(), store: RecordingStore = RecordingStore(), journal: Journal) {
        self.name = name
        self.probe = probe
        self.journal = journal
        super.init(view: LabelView(), store: store)
        rootView.model = name
    }

    var navigationConfiguration: [NavigationRequest: NavigationInstruction] { routes }

    override func subscriptions() -> [Subscription] {
        [
            Subscription(
                probe.feed,
                onFailure: { [unowned self] error in rootView.model = "\(name) failed" },
                { [unowned self] value in rootView.model = "\(name): \(value)" })
        ]
    }

    override func setupInteraction() {
        journal.log("\(name) setupInteraction")
        rootView.didPressX = { [unowned self] in dispatch("x from \(name)") }
    }

    override func didLoad() { journal.log("\(name) didLoad") }
    override func willAppear() { journal.log("\(name) willAppear") }
    override func didAppear() { journal.log("\(name) didAppear connected=\(isConnected)") }
    override func willDisappear() { journal.log("\(name) willDisappear") }
    override func didDisappear() { journal.log("\(name) didDisappear connected=\(isConnected)") }
    override func didResize(to size: Size) { journal.log("\(name) didResize \(size)") }
    override func didChangeFocus(_ focused: Bool) { journal.log("\(name) focus \(focused)") }
    override func didFail(_ error: any Error) {
        guard parent == nil && presenter == nil else { return super.didFail(error) }
        failures.append("\(error)")
    }
}

/// Lifecycle events in order, shared by the screens of one test.
@MainActor
final class Journal {
    private(set) var entries: [String] = []
    func log(_ entry: String) { entries.append(entry) }
    /// The entries logged since the last call.
    func take() -> [String] {
        defer { entries = [] }
        return entries
    }
}
