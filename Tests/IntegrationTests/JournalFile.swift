import CSQLite
import Foundation
import TestSupport

/// Direct access to a stopped daemon's journal file, to damage it the way disks and old or new
/// versions would.
enum JournalFile {
    /// The journal of `daemon`.
    static func path(_ daemon: DaemonHarness) -> String { daemon.dataDirectory + "/journal.sqlite3" }

    /// Runs `sql` on the database at `path`. With `keepingWAL`, closing does not fold the WAL
    /// into the file (as after a crash).
    static func execute(_ sql: String, on path: String, keepingWAL: Bool = false) throws {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
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

    /// The bytes of the file.
    static func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
