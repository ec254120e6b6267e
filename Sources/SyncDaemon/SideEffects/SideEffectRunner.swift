import CUV
import SyncProtocol
import SyncStore

/// Runs side effects as Swift tasks, off the loop, and carries the actions they dispatch back
/// to the loop thread through an inbox. Loop-confined itself: not `Sendable`.
final class SideEffectRunner<State: Sendable, Dependencies: SideEffectDependencies> {
    /// An action a side effect dispatched, with the continuation that receives its outcome.
    struct Dispatch: Sendable {
        let action: any Action<State>
        let reply: CheckedContinuation<UInt64, any Error>
    }

    private let effects: [any SideEffect<State, Dependencies>]
    private let dependencies: Dependencies
    private let inbox: LoopInbox<Dispatch>
    private let mirror: StateMirror<State>
    private var tasks: [Task<Void, Never>] = []

    /// A runner whose effects' dispatches reach `apply` on the loop thread.
    init(
        loop: UnsafeMutablePointer<uv_loop_t>, effects: [any SideEffect<State, Dependencies>],
        mirror: StateMirror<State>, dependencies: Dependencies,
        apply: @escaping (any Action<State>, CheckedContinuation<UInt64, any Error>) -> Void
    ) throws(DaemonError) {
        self.effects = effects
        self.dependencies = dependencies
        self.mirror = mirror
        inbox = try LoopInbox(loop: loop) { dispatch in apply(dispatch.action, dispatch.reply) }
    }

    /// Whether the side effects are running.
    var isRunning: Bool { !tasks.isEmpty }

    /// Starts every side effect in its own task, unless they run.
    func start() {
        guard tasks.isEmpty else { return }
        let sender = inbox.sender
        let context = SideEffectContext<State, Dependencies>(
            currentState: { [mirror] in mirror.read() },
            dispatch: { action in
                // A paused or stopped side effect changes nothing more.
                try Task.checkCancellation()
                return try await withCheckedThrowingContinuation { reply in
                    if !sender.post(Dispatch(action: action, reply: reply)) {
                        reply.resume(throwing: ProtocolError(.rejected, "The daemon is shutting down."))
                    }
                }
            },
            dependencies: dependencies)
        tasks = effects.map { effect in Task { await effect.run(context) } }
    }

    /// Cancels the tasks; `start()` runs the side effects anew. (Another daemon took over
    /// the side effects of a shared log.)
    func pause() {
        for task in tasks { task.cancel() }
        tasks = []
    }

    /// Cancels the tasks and closes the inbox; dispatches still queued fail.
    func stop() {
        for task in tasks { task.cancel() }
        for dispatch in inbox.close() {
            dispatch.reply.resume(throwing: ProtocolError(.rejected, "The daemon is shutting down."))
        }
    }
}
