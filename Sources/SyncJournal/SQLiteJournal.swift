import CSQLite
import Glibc

/// The embedded journal: one SQLite database file in WAL mode with `synchronous=FULL`, so a
/// commit is on disk when `append` returns.
///
/// Schema (version 1), recorded in `meta`:
/// ```
/// meta(key TEXT PRIMARY KEY, value TEXT)            -- schema_version
/// actions(version INTEGER PRIMARY KEY, name TEXT, payload TEXT, accepted_at INTEGER,
///         peer_uid INTEGER NULL, peer_pid INTEGER NULL)
/// snapshots(version INTEGER PRIMARY KEY, state TEXT, saved_at INTEGER)   -- only the newest kept
/// ```
/// A migration to schema N+1 would run at open, in one transaction per step, when `meta` says
/// N; a file from a newer schema is refused. Opening never rewrites or truncates a file that
/// is not a journal of a known schema.
public final class SQLiteJournal: Journal {
    /// The schema version this build writes and reads.
    public static let schemaVersion = 1
    /// The journal's file name inside the data directory.
    public static let fileName = "journal.sqlite3"

    /// The database file.
    public let path: String
    private let database: SQLiteDatabase
    private let insertAction: Statement
    private let insertSnapshot: Statement
    private let pruneSnapshots: Statement
    private let selectActions: Statement
    private let selectLastVersion: Statement
    private let selectSnapshot: Statement

    /// Opens the journal at `path`, creating it (mode 0600) when no file is there.
    ///
    /// An existing file is checked before use: SQLite's quick check, then the schema version.
    public init(path: String) throws(JournalError) {
        self.path = path
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
            try Self.create(path)
        } else if status.st_size == 0 {
            throw .cannotOpen(path: path, reason: "the file is empty, not a todod journal; move it away to start a new journal")
        }
        database = try SQLiteDatabase(path: path, create: false)
        try Self.check(database)
        insertAction = try database.prepare(
            "INSERT INTO actions(version, name, payload, accepted_at, peer_uid, peer_pid) VALUES (?, ?, ?, ?, ?, ?)", operation: "preparing")
        insertSnapshot = try database.prepare("INSERT OR REPLACE INTO snapshots(version, state, saved_at) VALUES (?, ?, ?)", operation: "preparing")
        pruneSnapshots = try database.prepare("DELETE FROM snapshots WHERE version < ?", operation: "preparing")
        selectActions = try database.prepare(
            "SELECT version, name, payload, accepted_at, peer_uid, peer_pid FROM actions WHERE version > ? ORDER BY version LIMIT ?", operation: "preparing")
        selectLastVersion = try database.prepare("SELECT COALESCE(MAX(version), 0) FROM actions", operation: "preparing")
        selectSnapshot = try database.prepare("SELECT version, state FROM snapshots ORDER BY version DESC LIMIT 1", operation: "preparing")
    }

    public func prepareForWriting() throws(JournalError) {
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", operation: "configuring")
        database.allowCheckpointOnClose()
    }

    public func lastVersion() throws(JournalError) -> UInt64 {
        var version: UInt64 = 0
        try selectLastVersion.bind([], operation: "reading the last version")
        try selectLastVersion.run(operation: "reading the last version") { row throws(JournalError) in version = try row.version(0) }
        return version
    }

    public func append(_ entries: [JournalEntry], snapshot: Snapshot?) throws(JournalError) {
        if database.isInTransaction { try? database.execute("ROLLBACK", operation: "rolling back") }
        try database.execute("BEGIN IMMEDIATE", operation: "starting a commit")
        do {
            for entry in entries {
                try insertAction.bind([
                    .integer(Int64(entry.version)), .text(Array(entry.name.utf8)), .text(entry.payload), .integer(entry.acceptedAt),
                    entry.peerUID.map { .integer(Int64($0)) }, entry.peerPID.map { .integer(Int64($0)) },
                ], operation: "writing action \(entry.version)")
                try insertAction.run(operation: "writing action \(entry.version)")
            }
            if let snapshot {
                let savedAt = Int64(time(nil)) * 1000
                try insertSnapshot.bind([.integer(Int64(snapshot.version)), .text(snapshot.state), .integer(savedAt)], operation: "writing a snapshot")
                try insertSnapshot.run(operation: "writing a snapshot")
                try pruneSnapshots.bind([.integer(Int64(snapshot.version))], operation: "pruning snapshots")
                try pruneSnapshots.run(operation: "pruning snapshots")
            }
            try database.execute("COMMIT", operation: "committing")
        } catch {
            try? database.execute("ROLLBACK", operation: "rolling back")
            throw error
        }
    }

    public func entries(after version: UInt64, limit: Int) throws(JournalError) -> [JournalEntry] {
        var entries: [JournalEntry] = []
        try selectActions.bind([.integer(Int64(version)), .integer(Int64(limit))], operation: "reading actions")
        try selectActions.run(operation: "reading actions") { row throws(JournalError) in
            entries.append(JournalEntry(
                version: try row.version(0), name: String(decoding: row.text(1), as: UTF8.self), payload: row.text(2),
                acceptedAt: row.integer(3),
                peerUID: row.isNull(4) ? nil : UInt32(truncatingIfNeeded: row.integer(4)),
                peerPID: row.isNull(5) ? nil : Int32(truncatingIfNeeded: row.integer(5))))
        }
        return entries
    }

    public func latestSnapshot() throws(JournalError) -> Snapshot? {
        var snapshot: Snapshot?
        try selectSnapshot.bind([], operation: "reading the snapshot")
        try selectSnapshot.run(operation: "reading the snapshot") { row throws(JournalError) in
            snapshot = Snapshot(version: try row.version(0), state: row.text(1))
        }
        return snapshot
    }

    /// Creates a new journal: the schema is written to a temporary file that is renamed into
    /// place, so a crash never leaves a half-made journal at `path`.
    private static func create(_ path: String) throws(JournalError) {
        let temporary = path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotOpen(path: temporary, reason: String(cString: strerror(errno))) }
        close(descriptor)
        do {
            let database = try SQLiteDatabase(path: temporary, create: false)
            try database.execute("""
                PRAGMA journal_mode=DELETE;
                BEGIN;
                CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                INSERT INTO meta(key, value) VALUES ('schema_version', '\(schemaVersion)');
                CREATE TABLE actions(version INTEGER PRIMARY KEY, name TEXT NOT NULL, payload TEXT NOT NULL,
                                     accepted_at INTEGER NOT NULL, peer_uid INTEGER, peer_pid INTEGER);
                CREATE TABLE snapshots(version INTEGER PRIMARY KEY, state TEXT NOT NULL, saved_at INTEGER NOT NULL);
                COMMIT;
                PRAGMA journal_mode=WAL;
                """, operation: "creating the schema")
        }
        guard rename(temporary, path) == 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Checks an opened file before anything is written to it.
    private static func check(_ database: SQLiteDatabase) throws(JournalError) {
        var found: String?
        do {
            let statement = try database.prepare("SELECT value FROM meta WHERE key = 'schema_version'", operation: "reading the schema version")
            try statement.run(operation: "reading the schema version") { row in found = String(decoding: row.text(0), as: UTF8.self) }
        } catch .storage(_, _, let reason) {
            throw .cannotOpen(path: database.path, reason: "not a todod journal (\(reason))")
        }
        guard let found else { throw .cannotOpen(path: database.path, reason: "not a todod journal (no schema version)") }
        guard found == String(schemaVersion) else { throw .unknownSchema(path: database.path, found: found, supported: schemaVersion) }
        var verdict: [String] = []
        let quickCheck = try database.prepare("PRAGMA quick_check", operation: "checking integrity")
        try quickCheck.run(operation: "checking integrity") { row in verdict.append(String(decoding: row.text(0), as: UTF8.self)) }
        guard verdict == ["ok"] else { throw .corrupt(path: database.path, reason: verdict.prefix(3).joined(separator: "; ")) }
    }
}
