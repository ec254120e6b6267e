import SyncJournal
import SyncProtocol
import SyncStore

/// `batch`: several actions applied all or nothing, at consecutive versions, kept for one
/// commit and acked together with the last one's version. Each is accepted and applied on a
/// copy of the store; the first that is refused refuses the batch, and nothing is applied.
extension Engine {
    /// Serves `request` (whose frame is `payload`) from `connection`.
    func dispatchBatch(_ request: BatchRequest, payload: [UInt8], from connection: ClientConnection) {
        var numbered: DispatchLedger.Key?
        if let sequence = request.sequence {
            // A duplicate or a stale sequence is answered here, as for a dispatch.
            guard let key = admitNumberedDispatch(sequence: UInt64(sequence), from: connection, requestID: request.id)
            else { return }
            numbered = key
        }
        let items: [BatchEnvelope.Item]
        do {
            items = try WireJSON.decode(BatchEnvelope.self, from: payload).actions
        } catch {
            send(
                .error(
                    ProtocolError(
                        .invalidMessage,
                        "The \"actions\" of a batch must be an array of {\"name\", \"payload\"} objects (\(error.shortDescription)).",
                        requestID: request.id)), to: connection)
            return
        }
        guard (1...BatchRequest.maximumCount).contains(items.count) else {
            send(
                .error(
                    ProtocolError(
                        .invalidMessage,
                        "A batch holds 1 to \(BatchRequest.maximumCount) actions, not \(items.count).",
                        requestID: request.id)), to: connection)
            return
        }
        let requester = DispatchRequester.client(requests.enter(request.id, of: connection.id))
        if let writeRefusal {
            fail(requester, ProtocolError(.storageUnavailable, "The batch was not applied: \(writeRefusal)."))
            return
        }
        var scratch = store
        var entries: [JournalEntry] = []
        for (index, item) in items.enumerated() {
            let which = "action \(index + 1) of \(items.count) (\"\(item.name)\")"
            guard let type = actionTypes[item.name] else {
                let unknown =
                    sideEffectTypes[item.name] == nil
                    ? "no action is named \"\(item.name)\""
                    : "\"\(item.name)\" is a side effect, which a batch cannot hold"
                fail(requester, ProtocolError(.unknownAction, "The batch was not applied: \(which): \(unknown)."))
                return
            }
            do {
                entries.append(
                    try acceptItem(
                        type, payload: item.payload, onto: &scratch,
                        numbered: index == items.count - 1 ? numbered : nil, peer: connection.peer))
            } catch {
                var refusal = error
                refusal.message = "The batch was not applied: \(which): \(error.message)"
                fail(requester, refusal)
                return
            }
        }
        store = scratch
        pendingBatches.append(entries[0].version...entries[entries.count - 1].version)
        record(entries, numbered: numbered, for: requester)
    }

    /// Decodes `payload` as `A` and accepts it on `store` (see `accept`); the journal keeps the
    /// payload as the batch's JSON gives it.
    private func acceptItem<A: Action<App.State>>(
        _ type: A.Type, payload: JSONValue?, onto store: inout Store<App.State>, numbered: DispatchLedger.Key?,
        peer: Peer?
    ) throws(ProtocolError) -> JournalEntry {
        let action: A
        let received: [UInt8]
        do {
            guard case .object = payload ?? .object([:]) else { throw BatchPayloadNotAnObject() }
            received = try WireJSON.encode(payload ?? .object([:]))
            action = try WireJSON.decode(A.self, from: received)
        } catch {
            throw ProtocolError(
                .invalidPayload, "the payload is not a valid \"\(A.wireName)\" action (\(error.shortDescription))")
        }
        return try accept(action, received: received, onto: &store, numbered: numbered, peer: peer)
    }
}

/// A batch item whose payload is not a JSON object.
private struct BatchPayloadNotAnObject: Error, CustomStringConvertible {
    var description: String { "the payload must be an object" }
}
