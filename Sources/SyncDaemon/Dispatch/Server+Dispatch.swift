import SyncJournal
import SyncProtocol
import SyncStore

/// Dispatch, durability and the end of a loop pass: how an action becomes an ack and updates.
extension Server {
    /// Decodes the payload of a client's dispatch (at `location` in the message `payload`) as
    /// `A` and applies it; `numbered` is its client id and sequence, if it has them and they
    /// are new.
    func dispatch<A: Action<App.State>>(
        _ type: A.Type, payload: [UInt8], at location: DispatchPayloadLocation, requester: DispatchRequester,
        numbered: DispatchLedger.Key?
    ) {
        let action: A
        do {
            action = try DispatchEnvelope<A>.decodePayload(from: payload, at: location)
        } catch {
            fail(
                requester,
                ProtocolError(
                    .invalidPayload, "The payload is not a valid \"\(A.wireName)\" action (\(error.shortDescription)).")
            )
            return
        }
        apply(action, requester: requester, numbered: numbered)
    }

    /// Accepts and applies `action` and records it for the next commit (and, if `numbered`,
    /// in the ledger); the requester hears back once it is durable. A rejected action is not
    /// recorded anywhere: resent, it is judged again.
    func apply<A: Action<App.State>>(_ action: A, requester: DispatchRequester, numbered: DispatchLedger.Key? = nil) {
        if let writeRefusal {
            fail(requester, ProtocolError(.storageUnavailable, "The action was not applied: \(writeRefusal)."))
            return
        }
        var action = action
        let context = dependencies.acceptanceContext()
        action.accept(context, state: store.state)
        let payload: [UInt8]
        do {
            payload = try WireJSON.encode(action)
        } catch {
            fail(requester, ProtocolError(.invalidPayload, "The action cannot be encoded (\(error))."))
            return
        }
        do {
            try store.apply(action)
        } catch {
            fail(requester, ProtocolError(.rejected, String(describing: error)))
            return
        }
        if let numbered { ledger.record(numbered, version: store.version, durableThrough: writer.durableVersion) }
        let peer = peerCredentials(of: requester)
        writer.record(
            JournalEntry(
                version: store.version, name: A.wireName, payload: payload, acceptedAt: context.millisecondsSinceEpoch,
                peerUID: peer?.uid, peerPID: peer?.pid,
                clientID: numbered?.clientID, clientSequence: numbered?.sequence,
                host: writer.isShared ? configuration.hostName : nil))
        awaitingDurability.append((requester, store.version))
        if case .client(let connectionID, _) = requester { sessions[connectionID]?.awaitedReplies += 1 }
        passEnd.start()
    }

    private func peerCredentials(of requester: DispatchRequester) -> (uid: UInt32, pid: Int32)? {
        guard case .client(let connectionID, _) = requester, let peer = sessions[connectionID]?.connection.peer else {
            return nil
        }
        return (peer.uid, peer.pid)
    }

    /// A commit ended: durable actions get their acks at the end of this pass; after a failure
    /// the store and the ledger go back to the last durable state and every pending dispatch
    /// (and every duplicate waiting for one) fails.
    func journalDidFinish(_ outcome: JournalWriter<App.State>.Outcome) {
        switch outcome {
        case .durable(let version, let state):
            durableState = state
            // Mostly in version order, but a duplicate waits behind later dispatches.
            durableAcks.append(contentsOf: awaitingDurability.filter { $0.version <= version })
            awaitingDurability.removeAll { $0.version <= version }
        case .failed(let durableVersion, let reason):
            rollBack(
                to: durableVersion,
                ProtocolError(.storageUnavailable, "The action could not be saved, so it was not applied (\(reason))."))
        case .overtaken(let foreign, let unsaved):
            rebase(onto: foreign, unsaved: unsaved)
        case .uncertain(let durableVersion, let reason):
            guard writer.isShared else {
                // The commit may be on disk or not, and the clients cannot be told either way
                // truthfully: stop, and let the restart's recovery read what the disk holds.
                stopBecauseUncertain(reason)
                return
            }
            rollBack(
                to: durableVersion,
                ProtocolError(
                    .storageUnavailable,
                    "The database could not be reached to learn whether the action was saved: it may or may not have been applied (\(reason)). A numbered dispatch sent again is applied at most once."
                ))
            writer.requestCatchUp()
        case .rewritten(let durableVersion, let reason):
            refuseWrites(because: reason)
            rollBack(to: durableVersion, ProtocolError(.storageUnavailable, "The action was not applied: \(reason)."))
        }
        passEnd.start()
    }

    /// Takes the store and the ledger back to the durable state at `durableVersion` and fails
    /// every pending dispatch (and every duplicate waiting for one) with `error`.
    private func rollBack(to durableVersion: UInt64, _ error: ProtocolError) {
        store = Store(state: durableState, version: durableVersion)
        ledger.forget(after: durableVersion)
        failAwaiting(error)
    }

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

    /// Publishes what became durable to subscribers, then acks, and writes each connection;
    /// then starts the next commit. A commit made on the loop thread is answered and written
    /// in the same pass, and what was ready before it does not wait for its fsync.
    func passDidEnd() {
        answerDurableActions()
        if writer.startNextJob() == .ranInline { answerDurableActions() }
        continueShutdownIfIdle()
        flushConnections()
        if connectionsToFlush.isEmpty { passEnd.stop() }
    }

    /// Sends the updates and acks of what became durable.
    private func answerDurableActions() {
        if !durableAcks.isEmpty || publishedVersion != writer.durableVersion {
            publish()
            for (requester, version) in durableAcks {
                switch requester {
                case .client(let connectionID, let requestID):
                    if let session = sessions[connectionID] { send(.ack(id: requestID, version: version), to: session) }
                    didAnswerAwaitedRequest(of: connectionID)
                case .sideEffect(let continuation):
                    continuation.resume(returning: version)
                }
            }
            durableAcks.removeAll(keepingCapacity: true)
        }
        flushConnections()
    }

    /// Writes every connection that has something queued, once.
    private func flushConnections() {
        let connections = connectionsToFlush
        connectionsToFlush.removeAll(keepingCapacity: true)
        for connection in connections { connection.flush() }
    }

    private func publish() {
        let version = writer.durableVersion
        guard version != publishedVersion else { return }
        publishedState = durableState
        publishedVersion = version
        mirror.publish(state: publishedState, version: version)
        hub.publish(publishedState, version: version) { subscriber, change in
            sessions[subscriber.connectionID]?.connection.enqueueUpdate(
                change, subscription: subscriber.subscription, version: version) ?? false
        }
    }
}
