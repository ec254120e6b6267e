import SyncJournal
import SyncProtocol

/// `history`: journaled actions for clients.
extension Server {
    /// Answers `history` from the journal, read on the thread pool between commits. Only
    /// durable actions are listed.
    func history(_ session: Session, requestID: Int64, after: UInt64?, limit: Int) {
        let connectionID = session.connection.id
        let start = after ?? (publishedVersion > UInt64(limit) ? publishedVersion - UInt64(limit) : 0)
        session.awaitedReplies += 1
        writer.read(after: start, limit: limit) { [unowned self] result in
            defer { didAnswerAwaitedRequest(of: connectionID) }
            guard let session = sessions[connectionID] else { return }
            switch result {
            case .success(let entries):
                let durable = entries.filter { $0.version <= writer.durableVersion }
                send(.entries(id: requestID, entries: durable.map(HistoryEntry.init)), to: session)
            case .failure(let error):
                send(
                    .error(
                        ProtocolError(
                            .storageUnavailable, "The journal cannot be read (\(error)).", requestID: requestID)),
                    to: session)
            }
        }
        passEnd.start()
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
