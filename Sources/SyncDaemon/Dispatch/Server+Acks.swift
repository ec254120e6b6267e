import SyncProtocol

/// Answering dispatches, a step of the end of the pass: the acks of what became durable (after
/// that pass's updates, so that every update reflecting version V is written before the ack
/// carrying V), and the failures of what will never be.
extension Server {
    /// Acks every dispatch that became durable.
    func sendDurableAcks() {
        for (requester, version) in pendingAcks.takeDurable() {
            switch requester {
            case .client(let connectionID, let requestID):
                sessions[connectionID]?.connection.send(.ack(id: requestID, version: version))
                didAnswerAwaitedRequest(of: connectionID)
            case .sideEffect(let continuation):
                continuation.resume(returning: version)
            }
        }
    }

    /// Fails every dispatch waiting for its commit (and every duplicate waiting for one).
    func failAwaiting(_ error: ProtocolError) {
        for (requester, _) in pendingAcks.takeAwaiting() {
            fail(requester, error)
            if case .client(let connectionID, _) = requester { didAnswerAwaitedRequest(of: connectionID) }
        }
    }

    /// Tells `requester` that its dispatch failed with `error`.
    func fail(_ requester: DispatchRequester, _ error: ProtocolError) {
        switch requester {
        case .client(let connectionID, let requestID):
            guard let session = sessions[connectionID] else { return }
            var error = error
            error.requestID = requestID
            send(.error(error), to: session)
        case .sideEffect(let continuation):
            continuation.resume(throwing: error)
        }
    }

    /// Closes the connection of a client that finished sending once nothing it asked for is
    /// still waiting for an answer.
    func closeIfFinished(_ session: Session) {
        if session.connection.clientEndedInput && session.awaitedReplies == 0 {
            session.connection.closeAfterFlushing(reason: .endOfInput)
        }
    }

    /// Notes that a request of `connectionID` that waited for the journal has its answer queued.
    func didAnswerAwaitedRequest(of connectionID: Int) {
        guard let session = sessions[connectionID] else { return }
        session.awaitedReplies -= 1
        closeIfFinished(session)
    }
}
