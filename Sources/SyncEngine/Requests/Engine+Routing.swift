import SyncProtocol

/// Routing, the step after framing: each frame is decoded as a request and given to the step
/// that serves it (a dispatch to `Engine+Apply.swift`, through `Engine+ExactlyOnce.swift` when
/// it is numbered).
extension Engine {
    /// A complete frame from `connection`.
    func route(_ payload: [UInt8], from connection: ClientConnection) {
        let request: ClientRequest
        let payloadLocation: DispatchPayloadLocation
        do {
            (request, payloadLocation) = try ClientRequest.decodeLocatingPayload(payload)
        } catch {
            if connection.isGreeted {
                send(.error(error), to: connection)
            } else {
                refuseBeforeHello(connection, because: error.message)
            }
            return
        }
        serve(request, payload: payload, payloadLocation: payloadLocation, from: connection)
    }

    /// Serves `request` (whose frame is `payload`) from `connection`.
    private func serve(
        _ request: ClientRequest, payload: [UInt8], payloadLocation: DispatchPayloadLocation,
        from connection: ClientConnection
    ) {
        if case .hello(let hello) = request {
            greet(
                connection, id: hello.id, protocolVersion: hello.protocolVersion, client: hello.client, app: hello.app,
                clientID: hello.clientID, features: hello.features)
            return
        }
        guard connection.isGreeted else {
            refuseBeforeHello(connection, because: "the first message was not hello")
            return
        }
        switch request {
        case .hello:
            break
        case .dispatch(let message):
            // The name looked up once as an action's (no side effect shares an action's name).
            let actionType = actionTypes[message.actionName]
            if actionType == nil, sideEffectTypes[message.actionName] != nil {
                runSideEffect(
                    named: message.actionName, payload: payload, at: payloadLocation,
                    numbered: message.sequence != nil, from: connection, requestID: message.id)
                return
            }
            var numbered: DispatchLedger.Key?
            if let sequence = message.sequence {
                // A duplicate or a stale sequence is answered here, whatever the action.
                guard
                    let key = admitNumberedDispatch(
                        sequence: UInt64(sequence), from: connection, requestID: message.id)
                else {
                    return
                }
                numbered = key
            }
            guard let type = actionType else {
                send(
                    .error(
                        ProtocolError(
                            .unknownAction, "No action or side effect is named \"\(message.actionName)\".",
                            requestID: message.id)),
                    to: connection)
                return
            }
            dispatch(
                type, payload: payload, at: payloadLocation,
                requester: .client(requests.enter(message.id, of: connection.id)), numbered: numbered,
                peer: connection.peer)
        case .batch(let message):
            dispatchBatch(message, payload: payload, from: connection)
        case .subscribe(let message):
            subscribe(connection, requestID: message.id, viewModel: message.viewModel, payload: payload)
        case .unsubscribe(let message):
            unsubscribe(connection, requestID: message.id, subscription: message.subscription)
        case .ping(let message):
            send(.pong(id: message.id), to: connection)
        case .history(let message):
            history(connection, requestID: message.id, after: message.after.map(UInt64.init), limit: Int(message.limit))
        case .get(let message):
            get(
                connection, requestID: message.id, viewModel: message.viewModel, at: message.at.map(UInt64.init),
                payload: payload)
        }
    }
}
