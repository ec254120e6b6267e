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
        if case .hello(let id, let protocolVersion, let client, let app, let clientID, let features) = request {
            greet(
                connection, id: id, protocolVersion: protocolVersion, client: client, app: app, clientID: clientID,
                features: features)
            return
        }
        guard connection.isGreeted else {
            refuseBeforeHello(connection, because: "the first message was not hello")
            return
        }
        switch request {
        case .hello:
            break
        case .dispatch(let id, let name, let sequence) where actionTypes[name] == nil && sideEffectTypes[name] != nil:
            runSideEffect(
                named: name, payload: payload, at: payloadLocation, numbered: sequence != nil, from: connection,
                requestID: id)
        case .dispatch(let id, let name, let sequence):
            var numbered: DispatchLedger.Key?
            if let sequence {
                // A duplicate or a stale sequence is answered here, whatever the action.
                guard let key = admitNumberedDispatch(sequence: sequence, from: connection, requestID: id) else {
                    return
                }
                numbered = key
            }
            guard let type = actionTypes[name] else {
                send(
                    .error(
                        ProtocolError(.unknownAction, "No action or side effect is named \"\(name)\".", requestID: id)),
                    to: connection)
                return
            }
            dispatch(
                type, payload: payload, at: payloadLocation,
                requester: .client(requests.enter(id, of: connection.id)), numbered: numbered)
        case .subscribe(let id, let viewModel):
            subscribe(connection, requestID: id, viewModel: viewModel, payload: payload)
        case .unsubscribe(let id, let subscription):
            unsubscribe(connection, requestID: id, subscription: subscription)
        case .ping(let id):
            send(.pong(id: id), to: connection)
        case .history(let id, let after, let limit):
            history(connection, requestID: id, after: after, limit: limit)
        case .get(let id, let viewModel, let at):
            get(connection, requestID: id, viewModel: viewModel, at: at, payload: payload)
        }
    }
}
