import SyncProtocol

/// `hello`: the protocol version, the app, the client id, the features, answered with
/// `welcome`; any other first message is refused and the connection closed.
extension Engine {
    /// Answers `hello` from `connection`.
    func greet(
        _ connection: ClientConnection, id: Int64, protocolVersion: Int, client: String, app: String?,
        clientID: String?, features: [String]
    ) {
        guard !connection.isGreeted else {
            send(
                .error(ProtocolError(.invalidMessage, "This connection already said hello.", requestID: id)),
                to: connection)
            return
        }
        guard WireProtocol.supportedVersions.contains(protocolVersion) else {
            let error = ProtocolError(
                .unsupportedProtocol,
                "Protocol \(protocolVersion) is not supported; this server speaks protocol \(WireProtocol.version).",
                requestID: id)
            enqueue(
                FrameEncoder.frame(ServerMessage.error(error, supported: WireProtocol.supportedVersions).encoded()),
                to: connection)
            perform(connection.machine.drain(.handshakeRefused), on: connection)
            return
        }
        if let app, app != configuration.appName {
            // Another app's client: nothing it would ask for means the same here (a hello without
            // an app, from an older client, is served as before).
            log(.warning, "\(connection.logName): hello refused: the client is \(app), not \(configuration.appName)")
            closeWithError(
                ProtocolError(
                    .wrongApp,
                    "this is \(configuration.daemonName), serving \(configuration.appName); the client is \(app)",
                    requestID: id), connection, because: .handshakeRefused)
            return
        }
        if let clientID, let problem = ClientID.problem(with: clientID) {
            // Like a refused protocol: the client asked for something this connection cannot
            // give, so it gets the reason and the connection closes rather than going on without.
            log(.warning, "\(connection.logName): hello refused: the client id is invalid (\(problem))")
            closeWithError(
                ProtocolError(
                    .invalidMessage,
                    "The \"clientId\" is not a valid client id: \(problem) (1 to \(ClientID.maximumLength) of A-Z a-z 0-9 . _ -).",
                    requestID: id), connection, because: .handshakeRefused)
            return
        }
        connection.greet(client: client, clientID: clientID)
        // Features not known here are left out of the answer, not refused: the client learns
        // what it got and does without the rest.
        let granted = features.isEmpty ? nil : Array(Set(features).intersection(WireProtocol.features)).sorted()
        connection.takesPatches = granted?.contains("patch") ?? false
        let lastSequence = clientID.map { ledger.lastSequence(of: $0, durableThrough: publishedVersion) }
        send(
            .welcome(
                .init(
                    id: id, protocolVersion: WireProtocol.version, server: configuration.serverName,
                    app: configuration.appName, version: publishedVersion,
                    clientID: clientID, lastSequence: lastSequence, features: granted, log: logStatus)), to: connection)
    }

    /// Refuses a client whose first message was not a valid `hello`, and closes its connection.
    func refuseBeforeHello(_ connection: ClientConnection, because reason: String) {
        log(.warning, "\(connection.logName): handshake refused: \(reason)")
        closeWithError(
            ProtocolError(.handshakeRequired, "The first message must be hello (\(reason))."), connection,
            because: .handshakeRefused)
    }
}
