import SyncJournal
import SyncProtocol
import SyncStore

/// Applying a dispatch, the step before the end of the pass: the payload decoded, the action
/// accepted and applied to the store, recorded in the ledger (if numbered) and for the next
/// commit, and its requester added to those waiting for it to be durable.
///
/// The journal keeps the payload's bytes as they were received, with the acceptance context
/// (`JournalEntry.acceptanceIdentifier`), and the action applied is the one decoded from those
/// very bytes, so that a replay repeats exactly what was done; an action whose acceptance reads
/// the state is journaled as accepted instead (`Action.acceptanceReadsState`).
extension Engine {
    /// Decodes the payload of a client's dispatch (at `location` in the message `payload`) as
    /// `A` and applies it; `numbered` is its client id and sequence, if it has them and they
    /// are new, and `peer` the credentials of its connection, if known.
    func dispatch<A: Action<App.State>>(
        _ type: A.Type, payload: [UInt8], at location: DispatchPayloadLocation, requester: DispatchRequester,
        numbered: DispatchLedger.Key?, peer: Peer?
    ) {
        let received: (payload: A, bytes: [UInt8])
        do {
            received = try location.decodeReceivedPayload(A.self, from: payload)
        } catch {
            fail(
                requester,
                ProtocolError(
                    .invalidPayload, "The payload is not a valid \"\(A.wireName)\" action (\(error.shortDescription)).")
            )
            return
        }
        apply(received.payload, received: received.bytes, requester: requester, numbered: numbered, peer: peer)
    }

    /// Applies `action`, dispatched inside the daemon (a side effect's, a schedule's), as if a
    /// client had sent it: through its JSON, which is what the journal keeps.
    func apply<A: Action<App.State>>(_ action: A, requester: DispatchRequester) {
        let received: (payload: A, bytes: [UInt8])
        do {
            let bytes = try WireJSON.encode(action)
            received = (try WireJSON.decode(A.self, from: bytes), bytes)
        } catch {
            fail(requester, ProtocolError(.invalidPayload, "The action does not survive its JSON (\(error))."))
            return
        }
        apply(received.payload, received: received.bytes, requester: requester, numbered: nil, peer: nil)
    }

    /// Accepts and applies `action` (decoded from `bytes`, from `peer`) and records it for the
    /// next commit (and, if `numbered`, in the ledger); the requester hears back once it is
    /// durable. A rejected action is not recorded anywhere: resent, it is judged again.
    private func apply<A: Action<App.State>>(
        _ action: A, received bytes: [UInt8], requester: DispatchRequester, numbered: DispatchLedger.Key?,
        peer: Peer?
    ) {
        if let writeRefusal {
            fail(requester, ProtocolError(.storageUnavailable, "The action was not applied: \(writeRefusal)."))
            return
        }
        let entry: JournalEntry
        do {
            entry = try accept(
                action, received: bytes, onto: &store, numbered: numbered, peer: peer)
        } catch {
            fail(requester, error)
            return
        }
        record(entry, numbered: numbered, for: requester)
    }

    /// Accepts `action` (decoded from `bytes`, its payload as received) on `store`'s state and
    /// applies it there; returns its journal entry (numbered `numbered`, from `peer`). The
    /// store is unchanged when it throws.
    func accept<A: Action<App.State>>(
        _ action: A, received bytes: [UInt8], onto store: inout Store<App.State>, numbered: DispatchLedger.Key?,
        peer: Peer?
    ) throws(ProtocolError) -> JournalEntry {
        var action = action
        let context = dependencies.acceptanceContext()
        action.accept(context, state: store.state)
        var payload = bytes
        var identifier: AcceptanceIdentifier? = AcceptanceIdentifier(context.identifier)
        if A.acceptanceReadsState {
            // Kept as accepted: what is applied is what those bytes give, as on replay.
            do {
                payload = try WireJSON.encode(action)
                action = try WireJSON.decode(A.self, from: payload)
            } catch {
                throw ProtocolError(.invalidPayload, "The accepted action does not survive its JSON (\(error)).")
            }
            identifier = nil
        }
        do {
            try store.apply(action)
        } catch {
            throw ProtocolError(.rejected, String(describing: error))
        }
        return JournalEntry(
            version: store.version, name: A.wireName, payload: payload, acceptedAt: context.millisecondsSinceEpoch,
            peerUID: peer?.uid, peerPID: peer?.pid,
            clientID: numbered?.clientID, clientSequence: numbered?.sequence,
            host: configuration.isShared ? configuration.hostName : nil, acceptanceIdentifier: identifier)
    }

    /// Keeps `entries`, applied to the store, for the next commit (and `numbered` in the
    /// ledger, as of the last of them); `requester` hears back once the last is durable.
    func record(_ entries: [JournalEntry], numbered: DispatchLedger.Key?, for requester: DispatchRequester) {
        uncommitted += entries
        recorded(numbered: numbered, for: requester)
    }

    /// Keeps `entry`, applied to the store, for the next commit: `record` for a single action,
    /// without an array of one per dispatch.
    func record(_ entry: JournalEntry, numbered: DispatchLedger.Key?, for requester: DispatchRequester) {
        uncommitted.append(entry)
        recorded(numbered: numbered, for: requester)
    }

    /// What follows keeping entries: `numbered` in the ledger, `requester` among those waiting
    /// for the store's version to be durable, and the end of the pass asked for (it commits).
    private func recorded(numbered: DispatchLedger.Key?, for requester: DispatchRequester) {
        if let numbered { ledger.record(numbered, version: store.version, durableThrough: durableVersion) }
        pendingAcks.add(requester, version: store.version, durableVersion: durableVersion)
        wantPassEnd()
    }
}
