import Foundation

/// The WAL writes and flushes a server made since its WAL statistics were last reset
/// (`pg_stat_reset_shared('wal')`), with the time the flushes took (`track_wal_io_timing`).
struct WALFlushes {
    /// WAL flushes (`fdatasync` of a WAL segment).
    var syncs: Double
    /// Their time, in milliseconds.
    var syncMilliseconds: Double
    /// WAL writes.
    var writes: Double

    /// The mean time of one flush, when there was one.
    var meanSyncMilliseconds: Double? { syncs > 0 ? syncMilliseconds / syncs : nil }

    /// Reads `pg_stat_wal` once no session is left on `database`: a session's statistics
    /// reach the shared counters when it ends, at the latest.
    init(_ server: PostgresServer, database: String) throws(BenchError) {
        try MonotonicClock.poll("the sessions on \(database) to end", timeout: 30, interval: 0.02) {
            () throws(BenchError) -> Bool? in
            try server.sql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'").trimmingCharacters(
                in: .whitespacesAndNewlines) == "0" ? true : nil
        }
        let fields = try server.sql("SELECT wal_sync, wal_sync_time, wal_write FROM pg_stat_wal").trimmingCharacters(
            in: .whitespacesAndNewlines
        ).split(separator: "|")
        guard fields.count == 3, let syncs = Double(fields[0]), let time = Double(fields[1]),
            let writes = Double(fields[2])
        else {
            throw .unexpectedReply(from: "pg_stat_wal", reply: fields.joined(separator: "|"))
        }
        (self.syncs, syncMilliseconds, self.writes) = (syncs, time, writes)
    }
}
