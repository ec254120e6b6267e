import SyncProtocol
import SyncStore

/// Side effects a client dispatches by name: started off the loop, answered with `result` once
/// they return (every action they dispatched durable by then), or with the error they threw.
extension Engine {
    /// Decodes the payload of the dispatch (at `location` in `payload`) as the side effect
    /// `name` and starts it for request `requestID` of `connection`, within the connection's bound.
    func runSideEffect(
        named name: String, payload: [UInt8], at location: DispatchPayloadLocation, numbered: Bool,
        from connection: ClientConnection, requestID: Int64
    ) {
        guard !numbered else {
            refuse(
                .invalidMessage,
                "\"\(name)\" is a side effect: it takes no \"sequence\" (only actions are applied exactly once).",
                requestID: requestID, on: connection)
            return
        }
        guard let type = sideEffectTypes[name] else {
            refuse(
                .unknownAction, "No action or side effect is named \"\(name)\".", requestID: requestID, on: connection)
            return
        }
        start(type, payload: payload, at: location, from: connection, requestID: requestID)
    }

    private func start<E: DispatchedSideEffect<App.State, App.Dependencies>>(
        _ type: E.Type, payload: [UInt8], at location: DispatchPayloadLocation, from connection: ClientConnection,
        requestID: Int64
    ) {
        let effect: E
        do {
            effect = try location.decodePayload(E.self, from: payload)
        } catch {
            refuse(
                .invalidPayload,
                "The payload is not a valid \"\(E.wireName)\" side effect (\(error.shortDescription)).",
                requestID: requestID, on: connection)
            return
        }
        let limit = configuration.maximumSideEffectsPerConnection
        guard sideEffectCalls.runningCount(of: connection.id) < limit else {
            refuse(
                .tooManySideEffects,
                "This connection already runs \(limit.counting("side effect")), the most it may at once; wait for one to finish.",
                requestID: requestID, on: connection)
            return
        }
        let total = configuration.maximumSideEffects
        guard sideEffectCalls.runningCount < total else {
            refuse(
                .tooManySideEffects,
                "The daemon already runs \(total.counting("side effect")), the most it runs at once; try again shortly.",
                requestID: requestID, on: connection)
            return
        }
        guard case .serving = shutdown, sideEffectCalls.isAccepting else {
            refuse(
                .cancelled, "The daemon is shutting down; the side effect was not started.", requestID: requestID,
                on: connection)
            return
        }
        let call = sideEffectCalls.start(
            connectionID: connection.id, token: requests.enter(requestID, of: connection.id))
        sideEffectsToStart[call] = effect
        emit(.startSideEffect(call: call))
    }

    /// Answers a call that ended. Its actions were acked (so published) before it returned.
    func sideEffectDidFinish(_ id: Int, _ outcome: Result<[UInt8], ProtocolError>) {
        guard let call = sideEffectCalls.finish(id) else { return }
        answer(call.token) { requestID in
            switch outcome {
            case .success(let result):
                return .result(id: requestID, version: publishedVersion, result: result)
            case .failure(var error):
                error.requestID = requestID
                return .error(error)
            }
        }
    }

    /// Cancels the calls of a client that finished sending and tells it so now: a client that
    /// goes cancels its side effects (they dispatch nothing more). They stay counted until
    /// their tasks end.
    func cancelSideEffects(of connection: ClientConnection) {
        let calls = sideEffectCalls.cancel(of: connection.id)
        guard !calls.isEmpty else { return }
        emit(.cancelSideEffects(calls))
        log(.debug, "\(connection.logName) finished sending: cancelled \(calls.count.counting("side effect"))")
        for id in calls {
            guard let call = sideEffectCalls.call(id) else { continue }
            answer(call.token) { requestID in
                var error = ProtocolError.sideEffectCancelledByClient
                error.requestID = requestID
                return .error(error)
            }
        }
    }

    /// Cancels every running call and tells each client so (the daemon is stopping). Their
    /// actions still queued fail; those already applied commit as usual.
    func stopSideEffects() {
        let stopped = sideEffectCalls.stop()
        emit(.stopSideEffects)
        for (_, call) in stopped {
            answer(call.token) { requestID in
                var error = ProtocolError.sideEffectCancelledByShutdown
                error.requestID = requestID
                return .error(error)
            }
        }
    }
}
