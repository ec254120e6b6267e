import SyncJournal
import SyncProtocol
import SyncStore

/// Applying a dispatch, the step before the end of the pass: the payload decoded, the action
/// accepted and applied to the store, recorded in the ledger (if numbered) and for the next
/// commit, and its requester added to those waiting for it to be durable.
extension Engine {
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
        if let numbered { ledger.record(numbered, version: store.version, durableThrough: durableVersion) }
        let peer = peerCredentials(of: requester)
        uncommitted.append(
            JournalEntry(
                version: store.version, name: A.wireName, payload: payload, acceptedAt: context.millisecondsSinceEpoch,
                peerUID: peer?.uid, peerPID: peer?.pid,
                clientID: numbered?.clientID, clientSequence: numbered?.sequence,
                host: configuration.isShared ? configuration.hostName : nil))
        pendingAcks.add(requester, version: store.version, durableVersion: durableVersion)
        wantPassEnd()
    }

    private func peerCredentials(of requester: DispatchRequester) -> Peer? {
        guard case .client(let token) = requester, let connectionID = requests.connection(of: token) else { return nil }
        return connections[connectionID]?.peer
    }
}
