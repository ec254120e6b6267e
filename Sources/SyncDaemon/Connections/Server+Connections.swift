import CUV
import SyncProtocol

/// The server's side of its connections: accepting a client, and what each connection reports
/// besides frames (broken framing, the end of input, the connection gone; a flush wanted is
/// the pass end's, in `Server+PassEnd.swift`).
extension Server {
    /// Accepts the client waiting on `listener` and starts serving it.
    func accept(from listener: UnsafeMutablePointer<uv_stream_t>) {
        guard case .serving = shutdown else { return }
        let limits = Connection.Limits(
            maximumFrameLength: configuration.maximumFrameLength,
            softQueueLimit: configuration.softQueueLimit,
            hardQueueLimit: configuration.hardQueueLimit)
        do {
            let connection = try Connection(
                id: nextConnectionID, loop: loop, acceptingFrom: listener, limits: limits, readBuffer: readBuffer)
            nextConnectionID += 1
            connection.delegate = self
            let session = Session(connection: connection)
            sessions[connection.id] = session
            guard let peer = connection.peer, configuration.peerPolicy.allows(uid: peer.uid, gid: peer.gid) else {
                let who = connection.peer.map { "uid \($0.uid) pid \($0.pid)" } ?? "an unknown peer"
                logger.log(.warning, "refused \(who): not allowed (see --allow-uid, --allow-group)")
                closeWithError(
                    ProtocolError(
                        .permissionDenied,
                        "This daemon does not serve user \(connection.peer.map { String($0.uid) } ?? "unknown")."),
                    session, because: .peerRefused)
                return
            }
            logger.log(.debug, "\(session.logName) connected (uid \(peer.uid) pid \(peer.pid))")
            connection.startReading()
        } catch {
            logger.log(.warning, "cannot accept a client: \(error)")
        }
    }

    func connection(_ connection: Connection, didBreakFraming error: FrameError) {
        guard let session = sessions[connection.id] else { return }
        let reply: ProtocolError
        switch error {
        case .emptyFrame:
            reply = ProtocolError(.invalidFrame, "A frame announced a payload of 0 bytes.")
        case .frameTooLarge(let length, let maximum):
            reply = ProtocolError(.frameTooLarge, "A frame announced \(length) bytes; the limit is \(maximum).")
        }
        logger.log(.warning, "\(session.logName): \(reply.message) Closing.")
        closeWithError(reply, session, because: .framingBroken)
    }

    func connectionReachedEndOfInput(_ connection: Connection) {
        guard let session = sessions[connection.id] else { return }
        closeIfFinished(session)
    }

    func connectionLost(_ connection: Connection, reason: DisconnectReason) {
        guard let session = sessions.removeValue(forKey: connection.id) else { return }
        sideEffectCalls.cancelCalls(of: connection.id)
        for (subscription, key) in session.subscriptions {
            hub.unsubscribe(.init(connectionID: connection.id, subscription: subscription), from: key)
        }
        logger.log(reason.logLevel, "\(session.logName) disconnected: \(reason.logText)")
        finishShutdownIfDone()
    }
}
