/// What the disk under the database costs per flush, as PostgreSQL's own `pg_test_fsync`
/// measures it: the microseconds per operation of each sync method with one 8 kB write, the
/// shape of a small commit's WAL flush. PostgreSQL flushes its WAL with `fdatasync` on Linux.
struct FsyncProbe {
    /// Microseconds per 8 kB write and `fdatasync` (the server's `wal_sync_method`).
    var fdatasyncMicroseconds: Double
    /// Microseconds per 8 kB write and `fsync`.
    var fsyncMicroseconds: Double?
    /// Microseconds per 8 kB write to a file opened `O_DSYNC`.
    var openDatasyncMicroseconds: Double?

    /// Runs `pg_test_fsync -s seconds` on a file in `directory` (on the database's file system);
    /// it runs about 15 tests of `seconds` each.
    init(directory: String, seconds: Int) throws(BenchError) {
        let file = directory + "/pg_test_fsync.tmp"
        let output = try Subprocess.run(
            PostgresServer.binaries + "/pg_test_fsync", ["-s", "\(seconds)", "-f", file], in: directory,
            timeout: Double(seconds * 30 + 60))
        guard let section = output.components(separatedBy: "\n\n").first(where: { $0.contains("using one 8kB write") })
        else {
            throw .unexpectedReply(from: "pg_test_fsync", reply: String(output.prefix(500)))
        }
        func microseconds(_ method: String) -> Double? {
            guard
                let line = section.split(separator: "\n").first(where: {
                    $0.split(separator: " ").first.map(String.init) == method
                })
            else { return nil }
            let words = line.split(separator: " ")
            guard let unit = words.firstIndex(of: "usecs/op"), unit > 0 else { return nil }
            return Double(words[unit - 1])
        }
        guard let fdatasync = microseconds("fdatasync") else {
            throw .unexpectedReply(from: "pg_test_fsync", reply: section)
        }
        fdatasyncMicroseconds = fdatasync
        fsyncMicroseconds = microseconds("fsync")
        openDatasyncMicroseconds = microseconds("open_datasync")
    }
}
