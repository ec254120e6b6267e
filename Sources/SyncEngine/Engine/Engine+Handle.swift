import SyncProtocol
import SyncStore

/// The entry points: each input goes to the step that handles it, in the file named after
/// that step (tmux's `server_client_dispatch` is the model); an action a side effect
/// dispatched, the one input carrying an app's type, has an entry point of its own.
extension Engine {
    /// Handles one event; what it leads to waits in the outputs.
    package func handle(_ input: EngineInput) {
        switch input {
        case .opened(let id, let peer, let allowed):
            open(id, peer: peer, allowed: allowed)
        case .received(let id, let bytes):
            receive(bytes, on: id)
        case .inputEnded(let id):
            endInput(of: id)
        case .failed(let id, let reason):
            if let connection = connections[id] { perform(connection.machine.close(reason), on: connection) }
        case .wrote(let id):
            if let connection = connections[id] { didWrite(connection) }
        case .passEnded:
            passDidEnd()
        case .journalJobStarted(let start):
            journalJobDidStart(start)
        case .journalJobFinished(let outcomes):
            journalJobDidFinish(outcomes)
        case .journalHasWork:
            wantPassEnd()
        case .entriesRead(let read, let result):
            deliverEntries(result, for: read)
        case .pastBaseRead(let read, let result):
            deliverPastBase(result, for: read)
        case .poolJobEnded(let job, let result):
            switch takeJournalRead(job) {
            case .rebuild(let token, let version)?: deliverRebuild(result, token: token, version: version)
            case .historyEncoding(let token)?: deliverHistory(result, token: token)
            case .history?, .pastBase?, nil: break
            }
        case .sideEffectFinished(let call, let outcome):
            sideEffectDidFinish(call, outcome)
        case .sharedLogObserved(let observation):
            sharedLogDidChange(observation)
        case .sharedLogVerified(let audit):
            sharedLogWasVerified(audit)
        case .shutdownRequested:
            beginShutdown()
        case .wakeUp:
            wakeUp()
        case .byeDeadlinePassed:
            for connection in Array(connections.values) {
                perform(connection.machine.close(.byeNotRead), on: connection)
            }
        }
    }

    /// A side effect dispatched `action`; the answer goes to `reply`
    /// (`EngineOutput.answerSideEffectDispatch`). `call` is the client's side effect that did, if
    /// one did (not a long-running side effect of the daemon's): cancelled, it applies nothing.
    /// What it leads to waits in the outputs, as for `handle(_:)`.
    package func handle(_ action: any Action<App.State>, dispatchedBySideEffect reply: UInt64, call: Int? = nil) {
        if let call, !sideEffectCalls.isLive(call) {
            emit(.answerSideEffectDispatch(reply: reply, .failure(ProtocolError.sideEffectCancelledByClient)))
        } else {
            apply(action, requester: .sideEffect(reply: reply))
        }
    }
}
