import CSQLite
import Glibc

/// The embedded journal: one SQLite database file in WAL mode with `synchronous=FULL`, so a
/// commit is on disk when `append` returns.
///
/// Schema (version 3), recorded in `meta`:
/// ```
/// meta(key TEXT PRIMARY KEY, value TEXT)            -- schema_version
/// actions(version INTEGER PRIMARY KEY, name TEXT, payload TEXT, accepted_at INTEGER,
///         peer_uid INTEGER NULL, peer_pid INTEGER NULL,
///         client_id TEXT NULL, client_sequence INTEGER NULL,              -- both or neither
///         acceptance_id TEXT NULL)          -- set: the payload is as received (JournalEntry)
/// snapshots(version INTEGER PRIMARY KEY, state TEXT, saved_at INTEGER,
///           ledger TEXT NULL)       -- the newest, and the oldest of each `snapshotSpacing`
/// ```
/// Schema 1 lacks the three NULL-able client columns, schema 2 the acceptance identifier. An
/// older file is read as it is (the missing columns read as NULL) and migrated by
/// `prepareForWriting`, in one transaction, so a
/// start that recovery refuses leaves it untouched; a file from a newer schema is refused.
/// Opening never rewrites or truncates a file that is not a journal of a known schema.
public final class SQLiteJournal: Journal {
    /// The schema version this build writes; it also reads every older one.
    public static let schemaVersion = 3
    /// The journal's file name inside the data directory.
    public static let fileName = "journal.sqlite3"
    /// The writer's page cache, in KiB (SQLite's default is 2000). The journal appends at the
    /// end of its tables and reads once what it reads (a recovery, a history, a past version):
    /// a page is rarely needed twice, and the system's page cache holds the file anyway, while
    /// SQLite's own kept up to 2 MB of the pages of the last snapshot written.
    static let pageCacheKibibytes = 256

    /// The database file.
    public let path: String
    /// The database file.
    public var location: String { path }
    public var snapshotSpacing: UInt64 = 0
    /// The schema version the file had when it was opened; older than `schemaVersion` until
    /// `prepareForWriting` migrates it.
    public let openedSchemaVersion: Int
    private let database: SQLiteDatabase
    private var reads: ReadStatements
    private var writes: WriteStatements?
    /// Runs the WAL's checkpoints beside the commits, once the journal is written to.
    private var checkpointer: WALCheckpointer?
    /// Told, on the checkpointer's thread or a committing one, when checkpoints start failing
    /// and when they work again.
    private let checkpointReports: (@Sendable (CheckpointReport) -> Void)?

    /// Opens the journal at `path`, creating it (mode 0600) when no file is there.
    /// `checkpointReports`, if given, hears when the WAL's checkpoints start failing (a full
    /// disk, say) and when they work again: on the checkpointer's thread, or inside an
    /// `append` (a commit that finishes a copy), so it must be quick, safe on any thread, and
    /// must not call the journal.
    ///
    /// An existing file is checked before use: SQLite's quick check, then the schema version.
    public init(path: String, checkpointReports: (@Sendable (CheckpointReport) -> Void)? = nil) throws(JournalError) {
        self.path = path
        self.checkpointReports = checkpointReports
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
            try Self.create(path)
        } else if status.st_size == 0 {
            throw .cannotOpen(
                path: path, reason: "the file is empty, not a journal; move it away to start a new journal")
        }
        database = try SQLiteDatabase(path: path, create: false)
        openedSchemaVersion = try Self.check(database)
        reads = try ReadStatements(database, schema: openedSchemaVersion)
    }

    /// The version of the newest snapshot in the journal at `path` (`nil`: none), read through
    /// a read-only connection that neither checks nor changes the file, so another process may
    /// be writing the journal meanwhile (the bench waits with it for a snapshot the daemon owes).
    public static func newestSnapshotVersion(path: String) throws(JournalError) -> UInt64? {
        let database = try SQLiteDatabase(path: path, create: false, readOnly: true)
        database.waitForLocks()
        var version: UInt64?
        try withExtendedLifetime(database) { () throws(JournalError) in
            let statement = try database.prepare("SELECT max(version) FROM snapshots", operation: "reading snapshots")
            try statement.run(operation: "reading snapshots") { row throws(JournalError) in
                if !row.isNull(0) { version = try row.version(0) }
            }
        }
        return version
    }

    public func prepareForWriting() throws(JournalError) {
        try database.execute(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA cache_size=-\(Self.pageCacheKibibytes);",
            operation: "configuring")
        if openedSchemaVersion < Self.schemaVersion {
            try Self.migrate(database, from: openedSchemaVersion)
            reads = try ReadStatements(database, schema: Self.schemaVersion)
        }
        writes = try WriteStatements(database)
        database.allowCheckpointOnClose()
        database.waitForLocks()
        if checkpointer == nil {
            let checkpointer = try WALCheckpointer(path: path, reports: checkpointReports)
            try checkpointer.start(checkpointingFor: database)
            self.checkpointer = checkpointer
        }
    }

    /// Checkpoints the checkpointer's thread completed so far.
    var checkpointsRun: Int { checkpointer?.completedCheckpoints.withLock { $0 } ?? 0 }

    deinit {
        // Before the writer's connection closes: the last connection to close checkpoints the
        // whole WAL into the database file and deletes it.
        checkpointer?.stop()
    }

    public func lastVersion() throws(JournalError) -> UInt64 {
        var version: UInt64 = 0
        try reads.lastVersion.bind([], operation: "reading the last version")
        try reads.lastVersion.run(operation: "reading the last version") { row throws(JournalError) in
            version = try row.version(0)
        }
        return version
    }

    public func append(_ entries: [JournalEntry], snapshot: Snapshot?) throws(JournalError) {
        guard let writes else { preconditionFailure("SQLiteJournal.append before prepareForWriting") }
        if database.isInTransaction { try? database.execute("ROLLBACK", operation: "rolling back") }
        if entries.count == 1, snapshot == nil {
            // One insert is its own transaction: without `BEGIN` and `COMMIT`, two statements
            // fewer for the commit of a lone action (a client dispatching one at a time).
            try Self.insert(entries[0], with: writes.action)
            return
        }
        try writes.begin.run(operation: "starting a commit")
        do throws(JournalError) {
            for entry in entries { try Self.insert(entry, with: writes.action) }
            if let snapshot {
                let savedAt = Int64(time(nil)) * 1000
                // The state is bound last, in place: SQLite's copy would be a second encoded state.
                try writes.snapshot.bind(
                    [.integer(Int64(snapshot.version)), nil, .integer(savedAt), snapshot.ledger.map { .text($0) }],
                    operation: "writing a snapshot")
                try writes.snapshot.run(bindingInPlace: snapshot.state, at: 2, operation: "writing a snapshot")
                try writes.pruneSnapshots.bind(
                    [.integer(Int64(snapshot.version)), .integer(Int64(clamping: snapshotSpacing))],
                    operation: "pruning snapshots")
                try writes.pruneSnapshots.run(operation: "pruning snapshots")
            }
            try writes.commit.run(operation: "committing")
        } catch {
            // A bind that failed left the others bound: the next append binds one by one.
            for statement in [writes.action, writes.snapshot, writes.pruneSnapshots] { statement.clearBindings() }
            try? database.execute("ROLLBACK", operation: "rolling back")
            throw error
        }
    }

    /// Inserts `entry` with `action`, the prepared insert of an action. Bound one by one: this
    /// runs once per action, and an array of values would be an allocation per action, and one
    /// more per text. The texts are bound in place, so the statement runs within their buffers'
    /// scope: SQLite's copies were an allocation each per action. The run leaves every
    /// parameter NULL again, and so does a failure here, before the buffers go.
    private static func insert(_ entry: JournalEntry, with action: Statement) throws(JournalError) {
        do throws(JournalError) {
            try bindAndRun(entry, with: action)
        } catch {
            action.clearBindings()
            throw error
        }
    }

    /// Binds `entry`'s fields to `action` and runs it, its texts bound in place (see `insert`).
    private static func bindAndRun(_ entry: JournalEntry, with action: Statement) throws(JournalError) {
        // A function, not a closure value: a closure capturing the entry was a box per action.
        func operation() -> String { "writing action \(entry.version)" }
        try action.bind(Int64(entry.version), at: 1, operation: operation())
        try action.bind(entry.acceptedAt, at: 4, operation: operation())
        if let uid = entry.peerUID { try action.bind(Int64(uid), at: 5, operation: operation()) }
        if let pid = entry.peerPID { try action.bind(Int64(pid), at: 6, operation: operation()) }
        if let sequence = entry.clientSequence { try action.bind(Int64(sequence), at: 8, operation: operation()) }
        try withUTF8(of: entry.name) { name throws(JournalError) in
            try action.bindText(inPlace: name, at: 2, operation: operation())
            try entry.payload.withUnsafeBufferPointer { payload throws(JournalError) in
                try action.bindText(inPlace: payload, at: 3, operation: operation())
                try withUTF8(ifPresent: entry.clientID) { clientID throws(JournalError) in
                    if let clientID { try action.bindText(inPlace: clientID, at: 7, operation: operation()) }
                    guard let identifier = entry.acceptanceIdentifier else {
                        return try action.run(operation: operation())
                    }
                    try identifier.withText { text in
                        Result { () throws(JournalError) in
                            try action.bindText(inPlace: text, at: 9, operation: operation())
                            try action.run(operation: operation())
                        }
                    }.get()
                }
            }
        }
    }

    /// Runs `body` with the UTF-8 bytes of `text` (`String.withUTF8`, whose errors are untyped,
    /// with the journal's error type).
    private static func withUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(JournalError) -> Void)
        throws(JournalError)
    {
        var text = text
        try text.withUTF8 { bytes in Result { () throws(JournalError) in try body(bytes) } }.get()
    }

    /// `withUTF8(of:_:)` for a text that may be absent (`body` gets `nil`).
    private static func withUTF8(
        ifPresent text: String?, _ body: (UnsafeBufferPointer<UInt8>?) throws(JournalError) -> Void
    ) throws(JournalError) {
        guard let text else { return try body(nil) }
        try withUTF8(of: text) { bytes throws(JournalError) in try body(bytes) }
    }

    public func entries(after version: UInt64, limit: Int) throws(JournalError) -> [JournalEntry] {
        var entries: [JournalEntry] = []
        try reads.actions.bind([.integer(Int64(version)), .integer(Int64(limit))], operation: "reading actions")
        try reads.actions.run(operation: "reading actions") { row throws(JournalError) in
            let version = try row.version(0)
            guard row.isNull(6) == row.isNull(7) else {
                throw .corrupt(
                    path: path,
                    reason: "the action at version \(version) has a client id or a client sequence, not both")
            }
            entries.append(
                JournalEntry(
                    version: version, name: String(decoding: row.text(1), as: UTF8.self), payload: row.text(2),
                    acceptedAt: row.integer(3),
                    peerUID: row.isNull(4) ? nil : UInt32(truncatingIfNeeded: row.integer(4)),
                    peerPID: row.isNull(5) ? nil : Int32(truncatingIfNeeded: row.integer(5)),
                    clientID: row.isNull(6) ? nil : String(decoding: row.text(6), as: UTF8.self),
                    clientSequence: row.isNull(7) ? nil : try row.unsigned(7, "client sequence"),
                    acceptanceIdentifier: try acceptanceIdentifier(in: row, at: 8, version: version)))
        }
        return entries
    }

    /// The acceptance identifier in column `index` of `row` (the action at `version`), if any.
    private func acceptanceIdentifier(in row: Statement, at index: Int32, version: UInt64) throws(JournalError)
        -> AcceptanceIdentifier?
    {
        guard !row.isNull(index) else { return nil }
        guard let identifier = AcceptanceIdentifier(text: row.text(index)) else {
            throw .corrupt(path: path, reason: "the action at version \(version) has a malformed acceptance identifier")
        }
        return identifier
    }

    public func latestSnapshot() throws(JournalError) -> Snapshot? {
        var snapshot: Snapshot?
        try reads.snapshot.bind([], operation: "reading the snapshot")
        try reads.snapshot.run(operation: "reading the snapshot") { row throws(JournalError) in
            snapshot = Snapshot(
                version: try row.version(0), state: row.text(1), ledger: row.isNull(2) ? nil : row.text(2))
        }
        return snapshot
    }

    public func snapshot(atOrBelow version: UInt64) throws(JournalError) -> Snapshot? {
        var snapshot: Snapshot?
        try reads.snapshotAtOrBelow.bind([.integer(Int64(clamping: version))], operation: "reading a snapshot")
        try reads.snapshotAtOrBelow.run(operation: "reading a snapshot") { row throws(JournalError) in
            snapshot = Snapshot(
                version: try row.version(0), state: row.text(1), ledger: row.isNull(2) ? nil : row.text(2))
        }
        return snapshot
    }
}
