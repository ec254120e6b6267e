import Glibc

/// The journal's schema: creating a file, checking an existing one, migrating an older one, and
/// the statements each schema is read and written with.
extension SQLiteJournal {
    /// The tables of the current schema. Kept beside `migrate`: a new file and a migrated one
    /// must end up with the same columns.
    private static let currentTables = """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE actions(version INTEGER PRIMARY KEY, name TEXT NOT NULL, payload TEXT NOT NULL,
                             accepted_at INTEGER NOT NULL, peer_uid INTEGER, peer_pid INTEGER,
                             client_id TEXT, client_sequence INTEGER, acceptance_id TEXT);
        CREATE TABLE snapshots(version INTEGER PRIMARY KEY, state TEXT NOT NULL, saved_at INTEGER NOT NULL, ledger TEXT);
        """

    /// Creates a new journal: the schema is written to a temporary file that is renamed into
    /// place, so a crash never leaves a half-made journal at `path`.
    static func create(_ path: String) throws(JournalError) {
        let temporary = path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotOpen(path: temporary, reason: String(cString: strerror(errno))) }
        close(descriptor)
        do {
            let database = try SQLiteDatabase(path: temporary, create: false)
            try database.execute(
                """
                PRAGMA journal_mode=DELETE;
                BEGIN;
                \(currentTables)
                INSERT INTO meta(key, value) VALUES ('schema_version', '\(schemaVersion)');
                COMMIT;
                PRAGMA journal_mode=WAL;
                """, operation: "creating the schema")
        }
        guard rename(temporary, path) == 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Checks an opened file before anything is written to it; returns its schema version.
    static func check(_ database: SQLiteDatabase) throws(JournalError) -> Int {
        var found: String?
        do {
            let statement = try database.prepare(
                "SELECT value FROM meta WHERE key = 'schema_version'", operation: "reading the schema version")
            try statement.run(operation: "reading the schema version") { row in
                found = String(decoding: row.text(0), as: UTF8.self)
            }
        } catch .storage(_, _, let reason) {
            throw .cannotOpen(path: database.path, reason: "not a journal of this daemon (\(reason))")
        }
        guard let found else {
            throw .cannotOpen(path: database.path, reason: "not a journal of this daemon (no schema version)")
        }
        guard let schema = Int(found), (1...schemaVersion).contains(schema) else {
            throw .unknownSchema(path: database.path, found: found, supported: schemaVersion)
        }
        var verdict: [String] = []
        let quickCheck = try database.prepare("PRAGMA quick_check", operation: "checking integrity")
        try quickCheck.run(operation: "checking integrity") { row in
            verdict.append(String(decoding: row.text(0), as: UTF8.self))
        }
        guard verdict == ["ok"] else {
            throw .corrupt(path: database.path, reason: verdict.prefix(3).joined(separator: "; "))
        }
        return schema
    }

    /// Brings a file of schema `version` to the current schema in one transaction: after a
    /// failure it is still the old schema, whole. Schema 2 added the client columns, schema 3
    /// the acceptance identifier of actions kept as received; all NULL for the actions and
    /// snapshot already there, which is what they would have been.
    static func migrate(_ database: SQLiteDatabase, from version: Int) throws(JournalError) {
        precondition((1..<schemaVersion).contains(version), "no migration from schema \(version)")
        let operation = "migrating from schema \(version) to \(schemaVersion)"
        let schema2 = """
            ALTER TABLE actions ADD COLUMN client_id TEXT;
            ALTER TABLE actions ADD COLUMN client_sequence INTEGER;
            ALTER TABLE snapshots ADD COLUMN ledger TEXT;
            """
        do {
            try database.execute(
                """
                BEGIN IMMEDIATE;
                \(version < 2 ? schema2 : "")
                ALTER TABLE actions ADD COLUMN acceptance_id TEXT;
                UPDATE meta SET value = '\(schemaVersion)' WHERE key = 'schema_version';
                COMMIT;
                """, operation: operation)
        } catch {
            if database.isInTransaction { try? database.execute("ROLLBACK", operation: "rolling back") }
            throw error
        }
    }

    /// The statements that read a file of a given schema; columns a schema lacks read as NULL,
    /// so every schema gives rows of the same shape.
    struct ReadStatements {
        /// `version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence,
        /// acceptance_id` of up to `?2` actions after version `?1`, oldest first.
        let actions: Statement
        /// The highest version, 0 for none.
        let lastVersion: Statement
        /// `version, state, ledger` of the newest snapshot.
        let snapshot: Statement
        /// `version, state, ledger` of the newest snapshot at or below version `?1`.
        let snapshotAtOrBelow: Statement

        init(_ database: SQLiteDatabase, schema: Int) throws(JournalError) {
            let clientColumns = schema >= 2 ? "client_id, client_sequence" : "NULL, NULL"
            let acceptanceColumn = schema >= 3 ? "acceptance_id" : "NULL"
            actions = try database.prepare(
                "SELECT version, name, payload, accepted_at, peer_uid, peer_pid, \(clientColumns), \(acceptanceColumn) FROM actions WHERE version > ? ORDER BY version LIMIT ?",
                operation: "preparing")
            lastVersion = try database.prepare("SELECT COALESCE(MAX(version), 0) FROM actions", operation: "preparing")
            snapshot = try database.prepare(
                "SELECT version, state, \(schema >= 2 ? "ledger" : "NULL") FROM snapshots ORDER BY version DESC LIMIT 1",
                operation: "preparing")
            snapshotAtOrBelow = try database.prepare(
                "SELECT version, state, \(schema >= 2 ? "ledger" : "NULL") FROM snapshots WHERE version <= ? ORDER BY version DESC LIMIT 1",
                operation: "preparing")
        }
    }

    /// The statements that write a file of the current schema.
    struct WriteStatements {
        /// Starts a commit (`BEGIN IMMEDIATE`).
        let begin: Statement
        /// Ends a commit (`COMMIT`).
        let commit: Statement
        /// Inserts one action: the nine columns in `ReadStatements.actions` order.
        let action: Statement
        /// Inserts (or replaces) a snapshot: `version, state, saved_at, ledger`.
        let snapshot: Statement
        /// Deletes the snapshots older than `?1` but the oldest of each span of `?2` versions
        /// (all of them when `?2` is 0).
        let pruneSnapshots: Statement

        init(_ database: SQLiteDatabase) throws(JournalError) {
            begin = try database.prepare("BEGIN IMMEDIATE", operation: "preparing")
            commit = try database.prepare("COMMIT", operation: "preparing")
            action = try database.prepare(
                "INSERT INTO actions(version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, acceptance_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                operation: "preparing")
            snapshot = try database.prepare(
                "INSERT OR REPLACE INTO snapshots(version, state, saved_at, ledger) VALUES (?, ?, ?, ?)",
                operation: "preparing")
            pruneSnapshots = try database.prepare(
                "DELETE FROM snapshots WHERE version < ?1 AND (?2 = 0 OR version NOT IN (SELECT MIN(version) FROM snapshots GROUP BY version / ?2))",
                operation: "preparing")
        }
    }
}
