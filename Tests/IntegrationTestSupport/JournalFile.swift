import CSQLite
import Foundation
import SyncProtocol
import SyncStore
import TestSupport
import TodoDomain

/// Direct access to a stopped daemon's journal file, to damage it the way disks and old or new
/// versions would.
enum JournalFile {
    /// The journal of `daemon`.
    static func path(_ daemon: DaemonHarness) -> String { daemon.dataDirectory + "/journal.sqlite3" }

    /// Runs `sql` on the database at `path` (with `creating`, a new file). With `keepingWAL`,
    /// closing does not fold the WAL into the file (as after a crash).
    static func execute(_ sql: String, on path: String, keepingWAL: Bool = false, creating: Bool = false) throws {
        var database: OpaquePointer?
        guard
            sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0), nil)
                == SQLITE_OK
        else {
            throw TestFailure("cannot open \(path)")
        }
        if keepingWAL { csqlite_set_checkpoint_on_close(database, 0) }
        defer { sqlite3_close(database) }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(database, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw TestFailure("\(sql) failed: \(message.map { String(cString: $0) } ?? "?")")
        }
    }

    /// The first column of every row `sql` returns from the database at `path`, as text.
    static func query(_ sql: String, on path: String) throws -> [String] {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw TestFailure("cannot open \(path)")
        }
        defer { sqlite3_close(database) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            throw TestFailure("cannot prepare \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
        }
        return rows
    }

    /// The tables of schema 1, exactly as todod created them before schema 2.
    static let schema1 = """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta(key, value) VALUES ('schema_version', '1');
        CREATE TABLE actions(version INTEGER PRIMARY KEY, name TEXT NOT NULL, payload TEXT NOT NULL,
                             accepted_at INTEGER NOT NULL, peer_uid INTEGER, peer_pid INTEGER);
        CREATE TABLE snapshots(version INTEGER PRIMARY KEY, state TEXT NOT NULL, saved_at INTEGER NOT NULL);
        """

    /// Replaces the stopped daemon's journal with a schema 1 journal holding the same actions
    /// and snapshot (which schema 1 holds without client ids and ledger).
    static func rewriteAsSchema1(_ daemon: DaemonHarness) throws {
        let path = path(daemon)
        let original = daemon.directory + "/schema2.sqlite3"
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.moveItem(atPath: path + suffix, toPath: original + suffix)
        }
        try execute(
            """
            PRAGMA journal_mode=DELETE;
            BEGIN;
            \(schema1)
            COMMIT;
            ATTACH '\(original)' AS original;
            INSERT INTO actions SELECT version, name, payload, accepted_at, peer_uid, peer_pid FROM original.actions;
            INSERT INTO snapshots SELECT version, state, saved_at FROM original.snapshots;
            DETACH original;
            PRAGMA journal_mode=WAL;
            """, on: path, creating: true)
        // Schema 1 keeps every action as accepted: what a daemon of its time wrote.
        let separator = "\u{1F}"
        let received = try query(
            "SELECT version || char(31) || name || char(31) || accepted_at || char(31) || acceptance_id || char(31) || payload FROM actions WHERE acceptance_id IS NOT NULL",
            on: original)
        for row in received {
            let fields = row.split(separator: separator, maxSplits: 4, omittingEmptySubsequences: false).map(
                String.init)
            let accepted = try acceptedPayload(
                name: fields[1], payload: fields[4], acceptedAt: Int64(fields[2])!, identifier: fields[3])
            let quoted = accepted.replacingOccurrences(of: "'", with: "''")
            try execute("UPDATE actions SET payload = '\(quoted)' WHERE version = \(fields[0])", on: path)
        }
    }

    /// The payload of a todo action kept as received, as it was accepted with `identifier` at
    /// `acceptedAt`.
    private static func acceptedPayload(name: String, payload: String, acceptedAt: Int64, identifier: String) throws
        -> String
    {
        guard let type = TodoApp.actionType(named: name), let uuid = UUID(uuidString: identifier) else {
            throw TestFailure("cannot accept the journaled \(name) \(payload)")
        }
        return try accepted(type, payload, AcceptanceContext(identifier: uuid, millisecondsSinceEpoch: acceptedAt))
    }

    private static func accepted<A: Action<TodoState>>(_ type: A.Type, _ payload: String, _ context: AcceptanceContext)
        throws -> String
    {
        var action = try WireJSON.decode(A.self, from: Array(payload.utf8))
        action.accept(context, state: TodoApp.initialState)
        return String(decoding: try WireJSON.encode(action), as: UTF8.self)
    }

    /// The bytes of the file.
    static func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
