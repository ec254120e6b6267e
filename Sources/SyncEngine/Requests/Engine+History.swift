import SyncJournal
import SyncProtocol
import SyncStore

/// `history`: journaled actions for clients.
extension Engine {
    /// Answers `history` from the journal, read between commits. Only durable actions are listed.
    func history(_ connection: ClientConnection, requestID: Int64, after: UInt64?, limit: Int) {
        let start = after ?? (publishedVersion > UInt64(limit) ? publishedVersion - UInt64(limit) : 0)
        let read = journalReads.add(.history(requests.enter(requestID, of: connection.id)))
        emit(.readEntries(read: read, after: start, limit: limit))
        wantPassEnd()
    }

    /// The entries the read `read` found. The durable ones are turned into their wire form and
    /// encoded on the thread pool (`deliverHistory` answers): a thousand entries, each decoded,
    /// accepted again and encoded, held every other client up for about 10 ms (median) on the loop.
    func deliverEntries(_ result: Result<[JournalEntry], JournalError>, for read: Int) {
        guard case .history(let token)? = takeJournalRead(read) else { return }
        switch result {
        case .success(let entries):
            let durable = entries.filter { $0.version <= durableVersion }
            let actionTypes = actionTypes
            _ = historyEncodings.admit { [unowned self] in
                let job = journalReads.add(.historyEncoding(token))
                emit(.runOnPool(job: job, work: { Self.encodedHistory(durable, actionTypes: actionTypes) }))
            }
        case .failure(let error):
            answer(token) { requestID in
                .error(
                    ProtocolError(.storageUnavailable, "The journal cannot be read (\(error)).", requestID: requestID))
            }
        }
    }

    /// The encoding of a history answer ended; `nil` when the thread pool refused the work.
    func deliverHistory(_ result: Result<[UInt8], PoolJobFailure>?, token: RequestBook.Token) {
        if let next = historyEncodings.finished() { next() }
        answer(token) { requestID in
            switch result {
            case .success(let entries)?:
                return .entries(id: requestID, entries: entries)
            case .failure(let reason)?:
                return .error(
                    ProtocolError(
                        .storageUnavailable, "The history cannot be encoded (\(reason)).", requestID: requestID))
            case nil:
                return .error(
                    ProtocolError(
                        .storageUnavailable, "The history could not be encoded (the thread pool refused the work).",
                        requestID: requestID))
            }
        }
    }
}

extension Engine {
    /// The JSON array of the wire forms of `entries` (see `historyEntry`). Pure: runs on a pool
    /// thread.
    static func encodedHistory(
        _ entries: [JournalEntry], actionTypes: ActionDirectory<App.State>
    ) -> Result<[UInt8], PoolJobFailure> {
        do {
            let initialState = App.initialState
            return .success(
                try WireJSON.encode(
                    entries.map { historyEntry($0, actionTypes: actionTypes, initialState: initialState) }))
        } catch {
            return .failure(PoolJobFailure(description: "\(error)"))
        }
    }

    /// The wire form of `entry`, whose payload is the action as it was applied: one the journal
    /// keeps as received is accepted again with its context (on `initialState`, the app's: its
    /// acceptance reads only the context), as a replay would accept it.
    static func historyEntry(
        _ entry: JournalEntry, actionTypes: ActionDirectory<App.State>, initialState: App.State
    ) -> HistoryEntry {
        var shown = entry
        if entry.acceptanceIdentifier != nil, let action = try? actionTypes.accepted(entry, on: initialState),
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
