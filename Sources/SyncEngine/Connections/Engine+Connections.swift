import SyncProtocol

/// A connection's life as the engine leads it: accepted, bytes cut into frames, replies and
/// updates queued, one write per pass, backpressure, the end of input, the close. Every
/// transition goes through the connection's `ConnectionStateMachine`; `perform` turns its
/// effects into outputs.
extension Engine {
    /// A client connected: it is served, or refused when the peer policy does not allow it.
    func open(_ id: Int, peer: Peer?, allowed: Bool) {
        let connection = ClientConnection(id: id, peer: peer, configuration: configuration)
        connections[id] = connection
        guard case .serving = shutdown else {
            perform(connection.machine.close(.shutdown), on: connection)
            return
        }
        guard let peer, allowed else {
            let who = peer.map { "uid \($0.uid) pid \($0.pid)" } ?? "an unknown peer"
            log(.warning, "refused \(who): not allowed (see --allow-uid, --allow-group)")
            closeWithError(
                ProtocolError(
                    .permissionDenied, "This daemon does not serve user \(peer.map { String($0.uid) } ?? "unknown")."),
                connection, because: .peerRefused)
            return
        }
        log(.debug, "\(connection.logName) connected (uid \(peer.uid) pid \(peer.pid))")
        perform(connection.machine.startReading(), on: connection)
    }

    /// Cuts `bytes` into frames and serves each; a broken framing ends the connection.
    func receive(_ bytes: UnsafeRawBufferPointer, on id: Int) {
        guard let connection = connections[id] else { return }
        connection.decoder.append(bytes)
        while connection.machine.isOpen {
            let payload: [UInt8]
            do {
                guard let next = try connection.decoder.next() else { return }
                payload = next
            } catch {
                perform(connection.machine.endInput(.byServer), on: connection)
                breakFraming(connection, error)
                return
            }
            route(payload, from: connection)
        }
    }

    private func breakFraming(_ connection: ClientConnection, _ error: FrameError) {
        let reply: ProtocolError
        switch error {
        case .emptyFrame:
            reply = ProtocolError(.invalidFrame, "A frame announced a payload of 0 bytes.")
        case .frameTooLarge(let length, let maximum):
            reply = ProtocolError(.frameTooLarge, "A frame announced \(length) bytes; the limit is \(maximum).")
        }
        log(.warning, "\(connection.logName): \(reply.message) Closing.")
        closeWithError(reply, connection, because: .framingBroken)
    }

    /// The client shut down its sending side: its side effects are cancelled at once (answered
    /// `cancelled`), and the connection closes once everything it asked for is answered.
    func endInput(of id: Int) {
        guard let connection = connections[id] else { return }
        perform(connection.machine.endInput(.byClient), on: connection)
        cancelSideEffects(of: connection)
        closeIfFinished(connection)
    }

    /// Closes the connection of a client that finished sending once it awaits no answer.
    func closeIfFinished(_ connection: ClientConnection) {
        if connection.machine.clientEndedInput && !requests.awaitsAnswers(connection.id) {
            perform(connection.machine.drain(.endOfInput), on: connection)
        }
    }

    /// Queues `message` for `connection`'s client.
    func send(_ message: ServerMessage, to connection: ClientConnection) {
        guard connection.machine.isOpen else { return }
        connection.outbound.append(message)
        didEnqueue(on: connection)
    }

    /// Queues a framed reply; it goes out with everything else queued in this loop pass.
    func enqueue(_ frame: [UInt8], to connection: ClientConnection) {
        guard connection.machine.isOpen else { return }
        connection.outbound.append(frame)
        didEnqueue(on: connection)
    }

    /// Queues `change` as the update of `subscription` at `version` (see `OutboundQueue`).
    /// Returns whether the subscription is stale: its newest model is asked for when the
    /// socket drains.
    @discardableResult
    func enqueueUpdate(
        _ change: ViewChange, subscription: Int64, version: UInt64, to connection: ClientConnection
    ) -> Bool {
        guard connection.machine.isOpen else { return false }
        let outcome = connection.outbound.appendUpdate(
            change, subscription: subscription, version: version, writingByteCount: connection.inFlightByteCount)
        if outcome != .absorbed { didEnqueue(on: connection) }
        return outcome.isStale
    }

    /// Answers request `requestID` of `connection` with the error `code` saying `message`.
    func refuse(_ code: ErrorCode, _ message: String, requestID: Int64, on connection: ClientConnection) {
        send(.error(ProtocolError(code, message, requestID: requestID)), to: connection)
    }

    /// Queues `error` for `connection`'s client, then closes the connection once it is written.
    func closeWithError(_ error: ProtocolError, _ connection: ClientConnection, because reason: CloseReason) {
        send(.error(error), to: connection)
        perform(connection.machine.drain(reason), on: connection)
    }

    /// Tells the machine how much is queued: it may ask for a flush, pause reading or close.
    private func didEnqueue(on connection: ClientConnection) {
        perform(
            connection.machine.didQueue(
                replyByteCount: connection.outbound.pendingReplyByteCount,
                queuedByteCount: connection.queuedByteCount),
            on: connection)
    }

    /// Writes what `connection` has queued, unless a write is in flight (its end writes the rest).
    func flush(_ connection: ClientConnection) {
        guard connection.machine.beginFlush(), connection.inFlightByteCount == 0 else { return }
        let drained = connection.outbound.drain { [self] subscription in newestModel(of: subscription, in: connection) }
        guard let buffer = drained else {
            perform(
                connection.machine.didFlush(wroteNothing: true, queuedByteCount: connection.queuedByteCount),
                on: connection)
            return
        }
        connection.inFlightByteCount = buffer.count
        emit(.write(connection: connection.id, buffer))
        perform(
            connection.machine.didFlush(wroteNothing: false, queuedByteCount: connection.queuedByteCount),
            on: connection)
    }

    /// The write in flight ended: write the rest.
    func didWrite(_ connection: ClientConnection) {
        connection.inFlightByteCount = 0
        flush(connection)
    }

    /// Carries out what a transition of `connection`'s machine asked for, in the order its
    /// `Effects` documents.
    func perform(_ effects: ConnectionStateMachine.Effects, on connection: ClientConnection) {
        if let reason = effects.close {
            lose(connection, reason)
            return
        }
        if effects.stopReading { emit(.stopReading(connection: connection.id)) }
        if effects.scheduleFlush { scheduleFlush(of: connection) }
        if effects.startReading { emit(.startReading(connection: connection.id)) }
    }

    /// Writes what `connection` queued at the end of this pass.
    private func scheduleFlush(of connection: ClientConnection) {
        connectionsToFlush.append(connection)
        wantPassEnd()
    }

    /// The connection is gone: its side effects are cancelled, its subscriptions and awaited
    /// answers dropped, and the shell closes the socket.
    private func lose(_ connection: ClientConnection, _ reason: CloseReason) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        requests.drop(connection.id)
        let cancelled = sideEffectCalls.cancel(of: connection.id)
        if !cancelled.isEmpty { emit(.cancelSideEffects(cancelled)) }
        for (subscription, key) in connection.subscriptions {
            hub.unsubscribe(.init(connectionID: connection.id, subscription: subscription), from: key)
        }
        emit(.close(connection: connection.id))
        log(reason.logLevel, "\(connection.logName) disconnected: \(reason.logText)")
        finishShutdownIfDone()
    }
}
