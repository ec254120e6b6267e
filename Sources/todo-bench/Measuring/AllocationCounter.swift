import Foundation

/// The allocations of a daemon started with `libtodo-malloc-count.so` preloaded (built beside
/// the bench: `swift build --product todo-malloc-count`): the library counts every malloc,
/// calloc, realloc and aligned allocation of the process and rewrites the count in `file`
/// every 10 ms.
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

    /// The daemon's count now: read after 50 ms, five of the library's reports, so that it holds
    /// everything done before the call.
    func read() throws(BenchError) -> UInt64 {
        usleep(50_000)
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw .file(path: file, reason: "cannot read the allocation count: \(error)")
        }
        guard let count = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .file(path: file, reason: "not an allocation count: \(text)")
        }
        return count
    }
}
