import SyncProtocol

/// Routing, the step after reading: each frame a connection hands over is decoded as a request
/// and given to the step that serves it (a dispatch to `Server+Apply.swift`, through
/// `Server+ExactlyOnce.swift` when it is numbered).
extension Server {
    /// A complete frame from `connection`.
    func connection(_ connection: Connection, didReceive payload: [UInt8]) {
        guard let session = sessions[connection.id] else { return }
        let request: ClientRequest
        let payloadLocation: DispatchPayloadLocation
        do {
            (request, payloadLocation) = try ClientRequest.decodeLocatingPayload(payload)
        } catch {
            if session.isGreeted {
                send(.error(error), to: session)
            } else {
                refuseBeforeHello(session, because: error.message)
            }
            return
        }
        handle(request, payload: payload, payloadLocation: payloadLocation, from: session)
    }

    /// Serves `request` (whose frame is `payload`) from `session`.
    private func handle(
        _ request: ClientRequest, payload: [UInt8], payloadLocation: DispatchPayloadLocation, from session: Session
    ) {
        if case .hello(let id, let protocolVersion, let client, let app, let clientID, let features) = request {
            greet(
                session, id: id, protocolVersion: protocolVersion, client: client, app: app, clientID: clientID,
                features: features)
            return
        }
        guard session.isGreeted else {
            refuseBeforeHello(session, because: "the first message was not hello")
            return
        }
        switch request {
        case .hello:
            break
        case .dispatch(let id, let name, let sequence) where actionTypes[name] == nil && sideEffectTypes[name] != nil:
            runSideEffect(
                named: name, payload: payload, at: payloadLocation, numbered: sequence != nil, from: session,
                requestID: id)
        case .dispatch(let id, let name, let sequence):
            var numbered: DispatchLedger.Key?
            if let sequence {
                // A duplicate or a stale sequence is answered here, whatever the action.
                guard let key = admitNumberedDispatch(sequence: sequence, from: session, requestID: id) else { return }
                numbered = key
            }
            guard let type = actionTypes[name] else {
                send(
                    .error(
                        ProtocolError(.unknownAction, "No action or side effect is named \"\(name)\".", requestID: id)),
                    to: session)
                return
            }
            dispatch(
                type, payload: payload, at: payloadLocation,
                requester: .client(connectionID: session.connection.id, requestID: id), numbered: numbered)
        case .subscribe(let id, let viewModel):
            subscribe(session, requestID: id, viewModel: viewModel, payload: payload)
        case .unsubscribe(let id, let subscription):
            unsubscribe(session, requestID: id, subscription: subscription)
        case .ping(let id):
            send(.pong(id: id), to: session)
        case .history(let id, let after, let limit):
            history(session, requestID: id, after: after, limit: limit)
        case .get(let id, let viewModel, let at):
            get(session, requestID: id, viewModel: viewModel, at: at, payload: payload)
        }
    }
}
