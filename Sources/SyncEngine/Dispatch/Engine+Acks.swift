import SyncProtocol

/// Answering dispatches, a step of the end of the pass: the acks of what became durable (after
/// that pass's updates, so that every update reflecting version V is written before the ack
/// carrying V), and the failures of what will never be.
extension Engine {
    /// Acks every dispatch that became durable.
    func sendDurableAcks() {
        for (requester, version) in pendingAcks.takeDurable() {
            switch requester {
            case .client(let token):
                answer(token) { .ack(id: $0, version: version) }
            case .sideEffect(let reply):
                emit(.answerSideEffectDispatch(reply: reply, .success(version)))
            case .schedule(let index):
                scheduleDidSettle(index, failure: nil)
            }
        }
    }

    /// Fails every dispatch waiting for its commit (and every duplicate waiting for one).
    func failAwaiting(_ error: ProtocolError) {
        for (requester, _) in pendingAcks.takeAwaiting() { fail(requester, error) }
    }

    /// Tells `requester` that its dispatch failed with `error`.
    func fail(_ requester: DispatchRequester, _ error: ProtocolError) {
        switch requester {
        case .client(let token):
            answer(token) { requestID in
                var error = error
                error.requestID = requestID
                return .error(error)
            }
        case .sideEffect(let reply):
            emit(.answerSideEffectDispatch(reply: reply, .failure(error)))
        case .schedule(let index):
            scheduleDidSettle(index, failure: error)
        }
    }
}
