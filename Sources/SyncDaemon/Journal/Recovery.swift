import SyncEngine
import SyncJournal
import SyncProtocol
import SyncStore

/// Rebuilds the store and the dispatch ledger from a journal at start-up: the newest snapshot
/// (with the ledger saved beside it), then every action after it, checked as it is read. Anything that does not fit (a snapshot or action that no longer
/// decodes, a gap in the versions, an action the app now rejects) stops the start with a message
/// naming the journal and the version; the journal itself is never changed here.
enum Recovery<App: SyncApp> {
    /// What recovery found.
    struct Result {
        let store: Store<App.State>
        /// The numbered dispatches applied, as far as the ledger's limits keep them.
        let ledger: DispatchLedger
        let snapshotVersion: UInt64
        let replayedCount: Int
        /// The snapshot and the actions after it, where the writer's snapshot schedule starts.
        let snapshotOrigin: SnapshotSchedule.Origin
    }

    /// Actions read from the journal per query, to bound memory on long journals.
    static var chunkSize: Int { 10_000 }

    /// Loads the newest snapshot and replays the actions after it; `emptyLedger` gives the
    /// ledger's limits.
    static func recover(from journal: any Journal, path: String, emptyLedger: DispatchLedger) throws(DaemonError)
        -> Result
    {
        do {
            var store = Store(state: App.initialState)
            var ledger = emptyLedger
            var snapshotVersion: UInt64 = 0
            var origin = SnapshotSchedule.Origin.empty
            if let snapshot = try journal.latestSnapshot() {
                do {
                    store = Store(
                        state: try WireJSON.decode(App.State.self, from: snapshot.state), version: snapshot.version)
                } catch {
                    throw DaemonError.recovery(
                        path: path,
                        reason: "the snapshot at version \(snapshot.version) does not decode: \(error.shortDescription)"
                    )
                }
                if let encoded = snapshot.ledger {
                    do {
                        ledger = try DispatchLedger(
                            decoding: encoded, windowSize: emptyLedger.windowSize, clientLimit: emptyLedger.clientLimit)
                    } catch {
                        throw DaemonError.recovery(
                            path: path,
                            reason:
                                "the dispatch ledger of the snapshot at version \(snapshot.version) does not decode: \(error.shortDescription)"
                        )
                    }
                }
                snapshotVersion = snapshot.version
                origin = .init(
                    version: snapshot.version, snapshotBytes: SnapshotSchedule.bytes(of: snapshot), bytesSince: 0)
            }
            let actionTypes = ActionDirectory<App.State>(App.actions)
            var replayed = 0
            while true {
                let entries = try journal.entries(after: store.version, limit: chunkSize)
                for entry in entries {
                    try replay(entry, into: &store, actionTypes: actionTypes, path: path)
                    origin.bytesSince += SnapshotSchedule.bytes(of: entry)
                    if let clientID = entry.clientID, let sequence = entry.clientSequence {
                        ledger.record(
                            .init(clientID: clientID, sequence: sequence), version: entry.version,
                            durableThrough: entry.version)
                    }
                }
                replayed += entries.count
                if entries.count < chunkSize { break }
            }
            return Result(
                store: store, ledger: ledger, snapshotVersion: snapshotVersion, replayedCount: replayed,
                snapshotOrigin: origin)
        } catch let error as JournalError {
            throw .journal(error)
        } catch let error as DaemonError {
            throw error
        } catch {
            throw .recovery(path: path, reason: String(describing: error))
        }
    }

    private static func replay(
        _ entry: JournalEntry, into store: inout Store<App.State>, actionTypes: ActionDirectory<App.State>, path: String
    ) throws(DaemonError) {
        guard entry.version == store.version + 1 else {
            throw .recovery(
                path: path,
                reason: "version \(store.version + 1) is missing (the next action recorded is \(entry.version))")
        }
        do {
            try actionTypes.reapply(entry, to: &store)
        } catch {
            throw .recovery(path: path, reason: error.description(at: entry.version))
        }
    }
}
