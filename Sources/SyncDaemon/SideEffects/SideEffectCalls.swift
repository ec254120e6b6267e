import CUV
import SyncProtocol
import SyncStore

/// The side effects clients dispatched, running as Swift tasks off the loop: their actions
/// come back to the loop through one inbox (as `SideEffectRunner`'s do), their outcomes through
/// another. Loop-confined itself: not `Sendable`.
final class SideEffectCalls<App: SyncApp> {
    /// A call running: whose request it answers, and its task.
    struct Call {
        let connectionID: Int
        let requestID: Int64
        let task: Task<Void, Never>
    }

    private let dispatches: LoopInbox<SideEffectRunner<App.State, App.Dependencies>.Dispatch>
    private let completions: LoopInbox<SideEffectCompletion>
    private let mirror: StateMirror<App.State>
    private let dependencies: App.Dependencies
    private var calls: [Int: Call] = [:]
    private var nextCallID = 1
    private var isOpen = true

    /// Calls whose actions reach `apply` and whose outcomes reach `finish`, on the loop thread.
    init(
        loop: UnsafeMutablePointer<uv_loop_t>, mirror: StateMirror<App.State>, dependencies: App.Dependencies,
        apply: @escaping (any Action<App.State>, CheckedContinuation<UInt64, any Error>) -> Void,
        finish: @escaping (Call, Result<[UInt8], ProtocolError>) -> Void
    ) throws(DaemonError) {
        self.mirror = mirror
        self.dependencies = dependencies
        dispatches = try LoopInbox(loop: loop) { dispatch in apply(dispatch.action, dispatch.reply) }
        var ended: (SideEffectCompletion) -> Void = { _ in }
        completions = try LoopInbox(loop: loop) { completion in ended(completion) }
        ended = { [unowned self] completion in
            guard let call = calls.removeValue(forKey: completion.callID) else { return }
            finish(call, completion.outcome)
        }
    }

    /// How many calls of connection `connectionID` are running.
    func runningCount(of connectionID: Int) -> Int {
        calls.values.reduce(0) { $0 + ($1.connectionID == connectionID ? 1 : 0) }
    }

    /// How many calls are running, those cancelled but not yet ended included.
    var runningCount: Int { calls.count }

    /// Starts `effect` for request `requestID` of connection `connectionID`.
    func start<E: DispatchedSideEffect<App.State, App.Dependencies>>(_ effect: E, connectionID: Int, requestID: Int64) {
        precondition(isOpen, "a side effect started after shutdown began")
        let callID = nextCallID
        nextCallID += 1
        let sender = dispatches.sender
        let completionSender = completions.sender
        let context = SideEffectContext<App.State, App.Dependencies>(
            currentState: { [mirror] in mirror.read() },
            dispatch: { action in
                // A cancelled call (its client left, or shutdown) changes nothing more.
                try Task.checkCancellation()
                return try await withCheckedThrowingContinuation { reply in
                    if !sender.post(.init(action: action, reply: reply)) {
                        reply.resume(throwing: ProtocolError(.cancelled, "The daemon is shutting down."))
                    }
                }
            },
            dependencies: dependencies)
        let task = SideEffectOutcome.launch(effect, in: context) { outcome in
            completionSender.post(SideEffectCompletion(callID: callID, outcome: outcome))
        }
        calls[callID] = Call(connectionID: connectionID, requestID: requestID, task: task)
    }

    /// Cancels the calls of a connection that is gone; nobody is answered. They stay counted
    /// (`runningCount`) until their tasks end, so that clients reconnecting in a loop cannot
    /// pile up tasks that ignore cancellation.
    func cancelCalls(of connectionID: Int) {
        for call in calls.values where call.connectionID == connectionID {
            call.task.cancel()
        }
    }

    /// Cancels every call and closes both inboxes (the daemon is stopping): returns the calls,
    /// whose clients get `cancelled` now; the actions of theirs still queued fail.
    func stop() -> [Call] {
        guard isOpen else { return [] }
        isOpen = false
        let stopped = calls.sorted { $0.key < $1.key }.map(\.value)
        calls = [:]
        for call in stopped { call.task.cancel() }
        for dispatch in dispatches.close() {
            dispatch.reply.resume(throwing: ProtocolError(.cancelled, "The daemon is shutting down."))
        }
        _ = completions.close()
        return stopped
    }

    /// Whether new calls may start.
    var isAccepting: Bool { isOpen }
}
