import SyncProtocol

/// `hello`: the protocol version, the app, the client id, the features, answered with
/// `welcome`; any other first message is refused and the connection closed.
extension Server {
    /// Answers `hello` from `session`.
    func greet(
        _ session: Session, id: Int64, protocolVersion: Int, client: String, app: String?, clientID: String?,
        features: [String]
    ) {
        guard !session.isGreeted else {
            send(
                .error(ProtocolError(.invalidMessage, "This connection already said hello.", requestID: id)),
                to: session)
            return
        }
        guard WireProtocol.supportedVersions.contains(protocolVersion) else {
            let error = ProtocolError(
                .unsupportedProtocol,
                "Protocol \(protocolVersion) is not supported; this server speaks protocol \(WireProtocol.version).",
                requestID: id)
            session.connection.enqueue(
                FrameEncoder.frame(ServerMessage.error(error, supported: WireProtocol.supportedVersions).encoded()))
            session.connection.closeAfterFlushing(reason: .handshakeRefused)
            return
        }
        let identity = configuration.identity
        if let app, app != identity.name {
            // Another app's client: nothing it would ask for means the same here (a hello without
            // an app, from an older client, is served as before).
            logger.log(.warning, "\(session.logName): hello refused: the client is \(app), not \(identity.name)")
            let error = ProtocolError(
                .wrongApp, "this is \(identity.daemonName), serving \(identity.name); the client is \(app)",
                requestID: id)
            send(.error(error), to: session)
            session.connection.closeAfterFlushing(reason: .handshakeRefused)
            return
        }
        if let clientID, let problem = ClientID.problem(with: clientID) {
            // Like a refused protocol: the client asked for something this connection cannot
            // give, so it gets the reason and the connection closes rather than going on without.
            logger.log(.warning, "\(session.logName): hello refused: the client id is invalid (\(problem))")
            send(
                .error(
                    ProtocolError(
                        .invalidMessage,
                        "The \"clientId\" is not a valid client id: \(problem) (1 to \(ClientID.maximumLength) of A-Z a-z 0-9 . _ -).",
                        requestID: id)), to: session)
            session.connection.closeAfterFlushing(reason: .handshakeRefused)
            return
        }
        session.greet(client: client, clientID: clientID)
        // Features not known here are left out of the answer, not refused: the client learns
        // what it got and does without the rest.
        let granted = features.isEmpty ? nil : Array(Set(features).intersection(WireProtocol.features)).sorted()
        session.takesPatches = granted?.contains("patch") ?? false
        let lastSequence = clientID.map { ledger.lastSequence(of: $0, durableThrough: publishedVersion) }
        send(
            .welcome(
                id: id, protocolVersion: WireProtocol.version, server: configuration.serverName,
                app: identity.name, version: publishedVersion,
                clientID: clientID, lastSequence: lastSequence, features: granted, log: logStatus), to: session)
    }

    /// Refuses a client whose first message was not a valid `hello`, and closes its connection.
    func refuseBeforeHello(_ session: Session, because reason: String) {
        logger.log(.warning, "\(session.logName): handshake refused: \(reason)")
        closeWithError(
            ProtocolError(.handshakeRequired, "The first message must be hello (\(reason))."), session,
            because: .handshakeRefused)
    }
}
