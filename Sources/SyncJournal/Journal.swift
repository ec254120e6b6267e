/// Durable storage for accepted actions and snapshots of the state: the daemon's memory across
/// restarts and crashes.
///
/// Calls block until done; a successful `append` is on disk. The daemon calls a journal from
/// one thread at a time (its start-up, then commits on libuv's thread pool, one in flight), so
/// implementations need no locking of their own. SQLite is the embedded default
/// (`SQLiteJournal`); a server-backed journal implements the same protocol.
public protocol Journal: AnyObject {
    /// Makes the journal ready for `append`, migrating it to the current schema if it is older.
    /// Called once, after recovery read it successfully: until then it is only read, so that a
    /// refused start leaves it exactly as it was.
    func prepareForWriting() throws(JournalError)

    /// The newest version recorded, 0 for an empty journal.
    func lastVersion() throws(JournalError) -> UInt64

    /// Appends `entries` (consecutive versions, the first one `lastVersion() + 1`) as one atomic
    /// and durable step: after a throw none of them is recorded. `snapshot`, if given, is saved
    /// in the same step, or, by a journal that saves it at best (a shared log), after the
    /// entries went through or were overtaken, its failure told by `lastSnapshotFailure`
    /// rather than thrown.
    func append(_ entries: [JournalEntry], snapshot: Snapshot?) throws(JournalError)

    /// Up to `limit` entries with versions above `version`, oldest first.
    func entries(after version: UInt64, limit: Int) throws(JournalError) -> [JournalEntry]

    /// The snapshot with the highest version, if any.
    func latestSnapshot() throws(JournalError) -> Snapshot?

    /// The snapshot with the highest version at or below `version`, if the journal still
    /// keeps one: where rebuilding the state at a past version starts. Actions are never
    /// deleted, so every version can be rebuilt from the initial state; snapshots are pruned
    /// (SQLite keeps the newest, a shared log the three newest), which makes old versions cost
    /// more replay. Unlike `latestSnapshot`, it moves nothing the journal tracks for appending.
    func snapshot(atOrBelow version: UInt64) throws(JournalError) -> Snapshot?

    /// Besides the newest snapshots, the journal keeps the oldest snapshot of each span of this
    /// many versions (0: only the newest), so that every past version has a snapshot at most
    /// this many versions (plus the distance between two snapshots) below it: what bounds the
    /// replay that rebuilding it takes. Set before the first append.
    var snapshotSpacing: UInt64 { get set }

    /// Where the journal is, for logs and `status`: a file path, or a database's host and
    /// name (never a password).
    var location: String { get }

    /// Whether other daemons append to the same log (PostgreSQL): then appends may be
    /// `overtaken`, and an `uncertain` commit is settled by reading the log later.
    var isShared: Bool { get }

    /// Why the snapshot given to the last `append` was not saved, for a journal that saves it
    /// at best beside the entries (a shared log: the entries are committed, or overtaken,
    /// whatever becomes of the snapshot); nil when it was saved, when none was given, or when
    /// `append` threw before saving it (the throw says why). A journal that saves the snapshot
    /// in the entries' own transaction, so that its failure is the append's, always answers nil.
    var lastSnapshotFailure: JournalError? { get }
}

extension Journal {
    /// A journal is written by one daemon unless it says otherwise.
    public var isShared: Bool { false }

    /// A journal saves the snapshot with the entries unless it says otherwise.
    public var lastSnapshotFailure: JournalError? { nil }
}

/// One accepted action as the journal keeps it.
public struct JournalEntry: Equatable, Sendable {
    /// The state version this action produced.
    public var version: UInt64
    /// The action's wire name.
    public var name: String
    /// The action's payload as JSON: as the client sent it when `acceptanceIdentifier` is set
    /// (a replay accepts it again), else as accepted, with the values acceptance fixed in it.
    public var payload: [UInt8]
    /// Acceptance time, milliseconds since the Unix epoch.
    public var acceptedAt: Int64
    /// The user id of the client that sent it; `nil` for the daemon's own side effects.
    public var peerUID: UInt32?
    /// The process id of the client that sent it; `nil` for the daemon's own side effects.
    public var peerPID: Int32?
    /// The client id of the connection that sent it, when its hello gave one and the dispatch
    /// was numbered; with `clientSequence`, what the daemon's dispatch ledger is rebuilt from.
    public var clientID: String?
    /// The sequence the client numbered the dispatch with; set exactly when `clientID` is.
    public var clientSequence: UInt64?
    /// The host whose daemon accepted it, in a log several daemons share; `nil` in a journal
    /// only one daemon writes.
    public var host: String?
    /// The identifier acceptance drew, when `payload` is the action as it was received: a
    /// replay accepts it again with this identifier and `acceptedAt`. `nil` when `payload` is
    /// the accepted action (an action whose acceptance reads the state, and every entry written
    /// before journals kept actions as received).
    public var acceptanceIdentifier: AcceptanceIdentifier?

    /// An entry with every field given.
    public init(
        version: UInt64, name: String, payload: [UInt8], acceptedAt: Int64, peerUID: UInt32?, peerPID: Int32?,
        clientID: String? = nil, clientSequence: UInt64? = nil, host: String? = nil,
        acceptanceIdentifier: AcceptanceIdentifier? = nil
    ) {
        self.version = version
        self.name = name
        self.payload = payload
        self.acceptedAt = acceptedAt
        self.peerUID = peerUID
        self.peerPID = peerPID
        self.clientID = clientID
        self.clientSequence = clientSequence
        self.host = host
        self.acceptanceIdentifier = acceptanceIdentifier
    }
}

/// The encoded state at a version, so start-up replays only the actions after it.
public struct Snapshot: Equatable, Sendable {
    /// The version of the state.
    public var version: UInt64
    /// The state, encoded as JSON.
    public var state: [UInt8]
    /// The daemon's dispatch ledger at the same version, encoded as JSON; `nil` in snapshots
    /// written before the journal kept one (schema 1).
    public var ledger: [UInt8]?

    /// A snapshot of `state`, and of `ledger` if given, at `version`.
    public init(version: UInt64, state: [UInt8], ledger: [UInt8]? = nil) {
        self.version = version
        self.state = state
        self.ledger = ledger
    }
}

/// Why the journal failed. Every case names the file and the problem.
public enum JournalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be opened or is not a journal.
    case cannotOpen(path: String, reason: String)
    /// The file is damaged: SQLite reports corruption, or the contents break the journal's rules.
    case corrupt(path: String, reason: String)
    /// The file was written by a schema this build does not know; `supported` is the newest one
    /// it reads (it reads every older one too).
    case unknownSchema(path: String, found: String, supported: Int)
    /// A write or read failed (disk full, I/O error); nothing of the failed step was recorded.
    case storage(path: String, operation: String, reason: String)
    /// Flushing to disk failed: the last step may or may not be on disk. Only a restart's
    /// recovery can tell, so the daemon must not go on as if it knew. A shared log reports this
    /// when it could not reach the database again to find out; reading it later tells.
    case uncertain(path: String, reason: String)
    /// A shared log only: another daemon appended first, up to `head`; nothing of this append
    /// was recorded. Read the entries after the local head, rebase, and append again.
    case overtaken(head: UInt64)
    /// A shared log only: the log no longer holds what this daemon read from it (rows changed,
    /// deleted or replaced, a restore or a failover that lost commits). Writing on must stop.
    case rewritten(path: String, reason: String)

    /// One line naming the file and the problem.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open journal \(path): \(reason)"
        case .corrupt(let path, let reason): return "journal \(path) is damaged: \(reason)"
        case .unknownSchema(let path, let found, let supported):
            return
                "journal \(path) has schema version \(found); this daemon reads schema versions 1 to \(supported) (did a newer release write it?)"
        case .storage(let path, let operation, let reason): return "\(operation) in journal \(path) failed: \(reason)"
        case .uncertain(let path, let reason):
            return "flushing journal \(path) to disk failed (\(reason)); the last commit may or may not be on disk"
        case .overtaken(let head):
            return "another daemon appended to the shared log first (its head is at version \(head))"
        case .rewritten(let path, let reason): return "the log \(path) was rewritten: \(reason)"
        }
    }
}
