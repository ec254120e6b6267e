import SyncJournal
import SyncProtocol

/// `history`: journaled actions for clients.
extension Engine {
    /// Answers `history` from the journal, read between commits. Only durable actions are listed.
    func history(_ connection: ClientConnection, requestID: Int64, after: UInt64?, limit: Int) {
        let start = after ?? (publishedVersion > UInt64(limit) ? publishedVersion - UInt64(limit) : 0)
        let read = journalReads.add(.history(requests.enter(requestID, of: connection.id)))
        emit(.readEntries(read: read, after: start, limit: limit))
        wantPassEnd()
    }

    /// The entries the read `read` found.
    func deliverEntries(_ result: Result<[JournalEntry], JournalError>, for read: Int) {
        guard case .history(let token)? = journalReads.take(read) else { return }
        answer(token) { requestID in
            switch result {
            case .success(let entries):
                let durable = entries.filter { $0.version <= durableVersion }
                return .entries(id: requestID, entries: durable.map(historyEntry))
            case .failure(let error):
                return .error(
                    ProtocolError(.storageUnavailable, "The journal cannot be read (\(error)).", requestID: requestID))
            }
        }
    }
}

extension Engine {
    /// The wire form of `entry`, whose payload is the action as it was applied: one the journal
    /// keeps as received is accepted again with its context (on the initial state: its
    /// acceptance reads only the context), as a replay would accept it.
    func historyEntry(_ entry: JournalEntry) -> HistoryEntry {
        var shown = entry
        if entry.acceptanceIdentifier != nil, let action = try? actionTypes.accepted(entry, on: App.initialState),
            let payload = try? WireJSON.encode(action)
        {
            shown.payload = payload
        }
        return HistoryEntry(shown)
    }
}

extension HistoryEntry {
    /// The wire form of a journal entry.
    init(_ entry: JournalEntry) {
        let payload =
            (try? WireJSON.decode(JSONValue.self, from: entry.payload))
            ?? .string(String(decoding: entry.payload, as: UTF8.self))
        self.init(
            version: entry.version, name: entry.name, payload: payload, acceptedAt: entry.acceptedAt,
            uid: entry.peerUID, pid: entry.peerPID,
            clientID: entry.clientID, sequence: entry.clientSequence, host: entry.host)
    }
}
