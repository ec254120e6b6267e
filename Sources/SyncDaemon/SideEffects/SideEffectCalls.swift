import CUV
import SyncEngine
import SyncProtocol
import SyncStore

/// The side effects clients dispatched, running as Swift tasks off the loop, as the engine
/// starts and cancels them: their actions come back to the loop through one inbox (as
/// `SideEffectRunner`'s do), their outcomes through another. Which call answers which request
/// is the engine's. Loop-confined itself: not `Sendable`.
final class SideEffectCalls<App: SyncApp> {
    /// An action a call dispatched, with the continuation that receives its outcome.
    struct Dispatch: Sendable {
        let call: Int
        let action: any Action<App.State>
        let reply: CheckedContinuation<UInt64, any Error>
    }

    private let dispatches: LoopInbox<Dispatch>
    private let completions: LoopInbox<SideEffectCompletion>
    private let mirror: StateMirror<App.State>
    private let dependencies: App.Dependencies
    private var tasks: [Int: Task<Void, Never>] = [:]

    /// Calls whose actions reach `apply` and whose outcomes reach `finish`, on the loop thread.
    init(
        loop: UnsafeMutablePointer<uv_loop_t>, mirror: StateMirror<App.State>, dependencies: App.Dependencies,
        apply: @escaping (Int, any Action<App.State>, CheckedContinuation<UInt64, any Error>) -> Void,
        finish: @escaping (Int, Result<[UInt8], ProtocolError>) -> Void
    ) throws(DaemonError) {
        self.mirror = mirror
        self.dependencies = dependencies
        dispatches = try LoopInbox(loop: loop) { dispatch in apply(dispatch.call, dispatch.action, dispatch.reply) }
        var ended: (SideEffectCompletion) -> Void = { _ in }
        completions = try LoopInbox(loop: loop) { completion in ended(completion) }
        ended = { [unowned self] completion in
            guard tasks.removeValue(forKey: completion.callID) != nil else { return }
            finish(completion.callID, completion.outcome)
        }
    }

    /// Starts `effect` as call `call`.
    func start<E: DispatchedSideEffect<App.State, App.Dependencies>>(_ effect: E, call: Int) {
        let sender = dispatches.sender
        let completionSender = completions.sender
        let context = SideEffectContext<App.State, App.Dependencies>(
            currentState: { [mirror] in mirror.read() },
            dispatch: { action in
                // A cancelled call (its client left, or shutdown) changes nothing more.
                try Task.checkCancellation()
                return try await withCheckedThrowingContinuation { reply in
                    if !sender.post(.init(call: call, action: action, reply: reply)) {
                        reply.resume(throwing: ProtocolError(.cancelled, "The daemon is shutting down."))
                    }
                }
            },
            dependencies: dependencies)
        tasks[call] = SideEffectOutcome.launch(effect, in: context) { outcome in
            completionSender.post(SideEffectCompletion(callID: call, outcome: outcome))
        }
    }

    /// Cancels these calls; each still reports its end.
    func cancel(_ calls: [Int]) {
        for call in calls { tasks[call]?.cancel() }
    }

    /// Cancels every call and closes both inboxes (the daemon is stopping); the actions still
    /// queued fail.
    func stop() {
        for task in tasks.values { task.cancel() }
        tasks = [:]
        for dispatch in dispatches.close() {
            dispatch.reply.resume(throwing: ProtocolError(.cancelled, "The daemon is shutting down."))
        }
        _ = completions.close()
    }
}
