import Foundation
import Glibc

/// What every figure shares: the options, where the binaries are, the run's temporary
/// directory, whether Redis is measured, and a progress line on stderr.
final class BenchContext {
    /// The parsed options.
    let options: BenchOptions
    /// The directory holding `todod` and `todo`.
    let binDirectory: String
    /// The run's private temporary directory; every daemon, journal and socket lives inside.
    let runDirectory: String
    /// Why Redis is not measured, or `nil` when it is.
    let redisSkipReason: String?

    /// Checks the binaries and Redis and makes the temporary directory.
    init(options: BenchOptions) throws(BenchError) {
        self.options = options
        binDirectory = options.binDirectory ?? Self.executableDirectory()
        for name in ["todod", "todo"] where access(binDirectory + "/" + name, X_OK) != 0 {
            throw .missingProgram(name: name, looked: binDirectory + "; build with swift build -c release")
        }
        let redisPresent = ["redis-server", "redis-benchmark", "redis-cli"].allSatisfy { Subprocess.findInPath($0) != nil }
        switch options.redis {
        case .skipped: redisSkipReason = "skipped (--no-redis)"
        case .ifPresent: redisSkipReason = redisPresent ? nil : "not installed (redis-server, redis-benchmark, redis-cli not all on PATH)"
        case .required:
            guard redisPresent else { throw .missingProgram(name: "redis-server, redis-benchmark and redis-cli", looked: "$PATH; scripts/bench installs them with apt-get") }
            redisSkipReason = nil
        }
        let temporaryParent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let pattern = temporaryParent + "/todo-bench.XXXXXX"
        var template = Array(pattern.utf8CString)
        guard let created = mkdtemp(&template) else { throw .file(path: pattern, reason: String(cString: strerror(errno))) }
        runDirectory = String(cString: created)
    }

    /// Whether the Redis side of the figures runs.
    var measuresRedis: Bool { redisSkipReason == nil }

    /// The path of the built executable `name`.
    func binary(_ name: String) -> String { binDirectory + "/" + name }

    /// A new directory for one part of a figure, e.g. `figure3-redis`.
    func directory(_ name: String) throws(BenchError) -> String {
        let path = runDirectory + "/" + name
        try Self.makeDirectory(path)
        return path
    }

    /// Says what is starting, on stderr (standard output carries the results).
    func progress(_ message: String) {
        FileHandle.standardError.write(Data("todo-bench: \(message)\n".utf8))
    }

    /// Removes the temporary directory, unless asked to keep it.
    func cleanUp() {
        if options.keepTemporary {
            progress("kept \(runDirectory)")
        } else {
            try? FileManager.default.removeItem(atPath: runDirectory)
        }
    }

    /// Creates `path` (mode 0700) unless it exists.
    static func makeDirectory(_ path: String) throws(BenchError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .file(path: path, reason: "cannot create: \(String(cString: strerror(errno)))")
        }
    }

    private static func executableDirectory() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent
    }
}
