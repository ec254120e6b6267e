import Glibc

/// The latency of a durable write on the file system of the run's directory, measured by the
/// bench itself so that its percentiles come from the same minutes as a figure's: appends of
/// one 4 KiB page (about what a small SQLite WAL commit writes) each followed by `fdatasync`,
/// one after the other. `FsyncProbe` (PostgreSQL's `pg_test_fsync`) gives averages only.
enum DiskSyncProbe {
    /// Milliseconds per append-and-`fdatasync`, `count` of them, in a file in `directory`
    /// (removed afterwards).
    static func measure(directory: String, count: Int) throws(BenchError) -> Distribution {
        let path = directory + "/fdatasync-probe.tmp"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
        defer {
            close(descriptor)
            unlink(path)
        }
        let page = [UInt8](repeating: 0x5a, count: 4096)
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let started = MonotonicClock.now()
            let written = page.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == page.count, fdatasync(descriptor) == 0 else {
                throw .file(path: path, reason: "write and fdatasync: \(String(cString: strerror(errno)))")
            }
            samples.append(Double(MonotonicClock.now() - started) / 1e6)
        }
        return Distribution(samples)
    }
}
