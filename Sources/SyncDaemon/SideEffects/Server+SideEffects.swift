import SyncProtocol
import SyncStore

/// Side effects a client dispatches by name: started off the loop, answered with `result` once
/// they return (every action they dispatched durable by then), or with the error they threw.
extension Server {
    /// Decodes the payload of the dispatch (at `location` in `payload`) as the side effect
    /// `name` and starts it for request `requestID` of `session`, within the connection's bound.
    func runSideEffect(
        named name: String, payload: [UInt8], at location: DispatchPayloadLocation, numbered: Bool,
        from session: Session, requestID: Int64
    ) {
        guard !numbered else {
            send(
                .error(
                    ProtocolError(
                        .invalidMessage,
                        "\"\(name)\" is a side effect: it takes no \"sequence\" (only actions are applied exactly once).",
                        requestID: requestID)), to: session)
            return
        }
        guard let type = sideEffectTypes[name] else {
            send(
                .error(
                    ProtocolError(
                        .unknownAction, "No action or side effect is named \"\(name)\".", requestID: requestID)),
                to: session)
            return
        }
        start(type, payload: payload, at: location, from: session, requestID: requestID)
    }

    private func start<E: DispatchedSideEffect<App.State, App.Dependencies>>(
        _ type: E.Type, payload: [UInt8], at location: DispatchPayloadLocation, from session: Session, requestID: Int64
    ) {
        let effect: E
        do {
            effect = try DispatchEnvelope<E>.decodePayload(from: payload, at: location)
        } catch {
            send(
                .error(
                    ProtocolError(
                        .invalidPayload,
                        "The payload is not a valid \"\(E.wireName)\" side effect (\(error.shortDescription)).",
                        requestID: requestID)), to: session)
            return
        }
        let connectionID = session.connection.id
        let limit = configuration.maximumSideEffectsPerConnection
        guard sideEffectCalls.runningCount(of: connectionID) < limit else {
            send(
                .error(
                    ProtocolError(
                        .tooManySideEffects,
                        "This connection already runs \(limit.counting("side effect")), the most it may at once; wait for one to finish.",
                        requestID: requestID)), to: session)
            return
        }
        let total = configuration.maximumSideEffects
        guard sideEffectCalls.runningCount < total else {
            send(
                .error(
                    ProtocolError(
                        .tooManySideEffects,
                        "The daemon already runs \(total.counting("side effect")), the most it runs at once; try again shortly.",
                        requestID: requestID)), to: session)
            return
        }
        guard case .serving = shutdown, sideEffectCalls.isAccepting else {
            send(
                .error(
                    ProtocolError(
                        .cancelled, "The daemon is shutting down; the side effect was not started.",
                        requestID: requestID)), to: session)
            return
        }
        sideEffectCalls.start(effect, connectionID: connectionID, requestID: requestID)
        session.awaitedReplies += 1
    }

    /// Answers a call that ended. Its actions were acked (so published) before it returned.
    func sideEffectDidFinish(_ call: SideEffectCalls<App>.Call, _ outcome: Result<[UInt8], ProtocolError>) {
        guard let session = sessions[call.connectionID] else { return }
        switch outcome {
        case .success(let result):
            send(.result(id: call.requestID, version: publishedVersion, result: result), to: session)
        case .failure(var error):
            error.requestID = call.requestID
            send(.error(error), to: session)
        }
        didAnswerAwaitedRequest(of: call.connectionID)
    }

    /// Cancels every running call and tells each client so (the daemon is stopping). Their
    /// actions still queued fail; those already applied commit as usual.
    func stopSideEffects() {
        for call in sideEffectCalls.stop() {
            sideEffectDidFinish(call, .failure(SideEffectOutcome.cancelled))
        }
    }
}
