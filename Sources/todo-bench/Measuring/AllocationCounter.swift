import Foundation

/// The allocations of a daemon started with `libtodo-malloc-count.so` preloaded (built beside
/// the bench: `swift build --product todo-malloc-count`): the library counts every malloc,
/// calloc, realloc and aligned allocation of the process and rewrites the count in `file`
/// every 10 ms, with the report's own number.
struct AllocationCounter {
    /// The counting library.
    let library: String
    /// Where the daemon's count is.
    let file: String

    /// A counter for a daemon in `directory`, or `nil` when the library is not built.
    init?(_ context: BenchContext, directory: String) {
        library = context.binary("libtodo-malloc-count.so")
        guard access(library, R_OK) == 0 else { return nil }
        file = directory + "/allocations"
    }

    /// What goes before the daemon's command line.
    var launcher: [String] { ["/usr/bin/env", "LD_PRELOAD=\(library)", "TODO_MALLOC_COUNT_FILE=\(file)"] }

    /// The daemon's count now: the count of the second report the library writes after the
    /// call (the first may have been read before the call's work ended).
    func read() throws(BenchError) -> UInt64 {
        let first = try report().number
        let deadline = MonotonicClock.now() + 30_000_000_000
        while MonotonicClock.now() < deadline {
            usleep(5_000)
            let latest = try report()
            if latest.number >= first + 2 { return latest.count }
        }
        throw .timedOut("the allocation counter in \(file) stopped reporting")
    }

    /// The count and the number of the report in the file.
    private func report() throws(BenchError) -> (count: UInt64, number: UInt64) {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw .file(path: file, reason: "cannot read the allocation count: \(error)")
        }
        let fields = text.split(separator: " ", omittingEmptySubsequences: true).compactMap {
            UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard fields.count == 2 else { throw .file(path: file, reason: "not an allocation count: \(text)") }
        return (fields[0], fields[1])
    }
}
