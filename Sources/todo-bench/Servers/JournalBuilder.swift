import Foundation
import Glibc
import SyncJournal
import SyncProtocol
import SyncStore
import TodoDomain

/// Writes a todod journal directly, the way the daemon would have written it: each action is
/// accepted and applied to a `Store` exactly as the daemon's server does (so payloads carry
/// the ids and times fixed at acceptance, and every action replays), and the entries go
/// through the daemon's own journal type (`SQLiteJournal`, `PostgresJournal`) in large
/// appends, so the schema is the daemon's.
///
/// A million actions take seconds this way; dispatching them through a daemon would take
/// minutes at the durable rate. The same goes for a shared log (`PostgresJournal`), whose
/// chained hashes the journal computes as the daemon's does.
struct JournalBuilder {
    /// Which actions the journal holds.
    enum Workload {
        /// `count` adds: a list of `count` items (`item N: ...`).
        case adds
        /// A list in steady state: items are added, completed `liveItems / 2` adds later and
        /// removed `liveItems` adds later, so the list holds about `liveItems` items, half done.
        case churn(liveItems: Int)
    }

    /// What was written.
    struct Written {
        /// The last version in the journal.
        var lastVersion: UInt64
        /// The version of its snapshot (0: none).
        var snapshotVersion: UInt64
        /// The number of items in the final state.
        var itemCount: Int
        /// The journal file's size in bytes.
        var fileBytes: Int
    }

    /// Actions per transaction.
    private static let chunk = 10_000

    /// Writes `count` actions of `workload` to a new journal in `dataDirectory` (created 0700),
    /// with a snapshot of the state at `snapshotVersion` (0: none).
    static func write(dataDirectory: String, workload: Workload, count: Int, snapshotVersion: UInt64) throws(BenchError)
        -> Written
    {
        try BenchContext.makeDirectory(dataDirectory)
        let path = dataDirectory + "/" + SQLiteJournal.fileName
        let written: Written
        do {
            // Closed at the end of this scope, which folds the WAL into the file.
            let journal = try SQLiteJournal(path: path)
            try journal.prepareForWriting()
            written = try append(
                to: journal, workload: workload, count: count, snapshotVersion: snapshotVersion, host: nil, chunk: chunk
            )
        } catch {
            throw .file(path: path, reason: "cannot write the journal: \(error)")
        }
        return Written(
            lastVersion: written.lastVersion, snapshotVersion: snapshotVersion, itemCount: written.itemCount,
            fileBytes: fileSize(path))
    }

    /// Appends `count` actions of `workload` to `journal`, which must be empty and ready for
    /// writing, `chunk` per append, the entries marked as accepted by `host` (a shared log's);
    /// with a snapshot of the state at `snapshotVersion` (0: none). `fileBytes` is 0.
    static func append(
        to journal: any Journal, workload: Workload, count: Int, snapshotVersion: UInt64, host: String?, chunk: Int
    ) throws -> Written {
        var builder = Builder(workload: workload, host: host)
        var entries: [JournalEntry] = []
        entries.reserveCapacity(chunk)
        while builder.store.version < UInt64(count) {
            entries.append(try builder.next())
            let version = builder.store.version
            if version == snapshotVersion {
                try journal.append(
                    entries, snapshot: Snapshot(version: version, state: try WireJSON.encode(builder.store.state)))
                entries.removeAll(keepingCapacity: true)
            } else if entries.count == chunk {
                try journal.append(entries, snapshot: nil)
                entries.removeAll(keepingCapacity: true)
            }
        }
        if !entries.isEmpty { try journal.append(entries, snapshot: nil) }
        return Written(
            lastVersion: builder.store.version, snapshotVersion: snapshotVersion,
            itemCount: builder.store.state.items.count, fileBytes: 0)
    }

    private static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Produces the actions one at a time, applying each.
    private struct Builder {
        let workload: Workload
        let host: String?
        var store = Store(state: TodoApp.initialState)
        /// The actions still to come in the current round, after its add.
        var queued: [any Action<TodoState>] = []
        var clock: Int64 = 1_780_000_000_000
        let encoder = WireJSON.makeEncoder()

        init(workload: Workload, host: String?) {
            self.workload = workload
            self.host = host
        }

        /// The next journal entry: accepts and applies one action.
        mutating func next() throws -> JournalEntry {
            if queued.isEmpty { queued = round() }
            let action = queued.removeFirst()
            return try accept(action)
        }

        /// One add, then what the workload does to older items.
        private func round() -> [any Action<TodoState>] {
            let number = store.state.nextNumber
            var actions: [any Action<TodoState>] = [
                AddItem(text: "item \(number): water the plants and call the plumber")
            ]
            if case .churn(let live) = workload {
                if number > live / 2 { actions.append(CompleteItem(number: number - live / 2)) }
                if number > live { actions.append(RemoveItem(number: number - live)) }
            }
            return actions
        }

        private mutating func accept<A: Action<TodoState>>(_ action: A) throws -> JournalEntry {
            var action = action
            clock += 7
            let context = AcceptanceContext(identifier: UUID(), millisecondsSinceEpoch: clock)
            action.accept(context, state: store.state)
            let payload = Array(try encoder.encode(action))
            try store.apply(action)
            return JournalEntry(
                version: store.version, name: A.wireName, payload: payload, acceptedAt: clock, peerUID: getuid(),
                peerPID: getpid(), host: host)
        }
    }
}
