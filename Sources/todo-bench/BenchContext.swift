import Foundation
import Glibc

/// What every figure shares: the options, where the binaries are, the run's temporary
/// directory, whether Redis is measured, whether the shared-log figures run (and the
/// PostgreSQL they share), and a progress line on stderr.
final class BenchContext {
    /// The parsed options.
    let options: BenchOptions
    /// The directory holding `todod` and `todo`.
    let binDirectory: String
    /// The run's private temporary directory; every daemon, journal and socket lives inside.
    let runDirectory: String
    /// Why Redis is not measured, or `nil` when it is.
    let redisSkipReason: String?
    /// Why the shared-log figures are skipped, or `nil` when they run.
    let postgresSkipReason: String?
    private var lab: SharedLogLab?
    /// A directory outside `runDirectory` made for the lab (see `labDirectory()`), removed at the end.
    private var outsideDirectory: String?

    /// Checks the binaries and Redis and makes the temporary directory.
    init(options: BenchOptions) throws(BenchError) {
        self.options = options
        binDirectory = options.binDirectory ?? Self.executableDirectory()
        for name in ["todod", "todo"] where access(binDirectory + "/" + name, X_OK) != 0 {
            throw .missingProgram(name: name, looked: binDirectory + "; build with swift build -c release")
        }
        let redisPresent = ["redis-server", "redis-benchmark", "redis-cli"].allSatisfy {
            Subprocess.findInPath($0) != nil
        }
        switch options.redis {
        case .skipped: redisSkipReason = "skipped (--no-redis)"
        case .ifPresent:
            redisSkipReason =
                redisPresent ? nil : "not installed (redis-server, redis-benchmark, redis-cli not all on PATH)"
        case .required:
            guard redisPresent else {
                throw .missingProgram(
                    name: "redis-server, redis-benchmark and redis-cli",
                    looked: "$PATH; scripts/bench installs them with apt-get")
            }
            redisSkipReason = nil
        }
        let postgresMissing = PostgresServer.unavailableReason
        switch options.postgres {
        case .skipped: postgresSkipReason = "skipped (--no-postgres)"
        case .ifPresent: postgresSkipReason = postgresMissing.map { "not available: \($0)" }
        case .required:
            if let postgresMissing { throw .missingProgram(name: "PostgreSQL 15", looked: postgresMissing) }
            postgresSkipReason = nil
        }
        let temporaryParent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let pattern = temporaryParent + "/todo-bench.XXXXXX"
        var template = Array(pattern.utf8CString)
        guard let created = mkdtemp(&template) else {
            throw .file(path: pattern, reason: String(cString: strerror(errno)))
        }
        runDirectory = String(cString: created)
        if !options.keepTemporary {
            let runDirectory = runDirectory
            _ = InterruptCleanup.register { try? FileManager.default.removeItem(atPath: runDirectory) }
        }
    }

    /// Whether the Redis side of the figures runs.
    var measuresRedis: Bool { redisSkipReason == nil }

    /// The private PostgreSQL and simulated hosts of the shared-log figures, started by the
    /// first of them to ask.
    func sharedLogLab() throws(BenchError) -> SharedLogLab {
        if let lab { return lab }
        let made = try SharedLogLab(directory: try labDirectory(), progress: progress)
        lab = made
        return made
    }

    /// The server the shared-log figures ran on and how the daemons reached it, once one ran.
    var sharedLogDescription: String? {
        lab.map { "\($0.server.version), fsync on, synchronous_commit on; daemons reach it by \($0.transport)" }
    }

    /// Where the lab lives: inside the run's directory when the user `postgres` (the server's,
    /// when running as root) can reach it, else in a directory of its own in /tmp. The run's
    /// directory is opened to others for search (mode 0711, no listing) for that.
    private func labDirectory() throws(BenchError) -> String {
        guard getuid() == 0 else { return try directory("shared-log") }
        chmod(runDirectory, 0o711)
        var ancestor = (runDirectory as NSString).deletingLastPathComponent
        var reachable = true
        while reachable && ancestor != "/" && !ancestor.isEmpty {
            var status = stat()
            reachable = stat(ancestor, &status) == 0 && status.st_mode & S_IXOTH != 0
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        if reachable {
            let path = try directory("shared-log")
            chmod(path, 0o711)
            return path
        }
        var template = Array("/tmp/todo-bench-shared-log.XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw .file(path: "/tmp/todo-bench-shared-log.XXXXXX", reason: String(cString: strerror(errno)))
        }
        let path = String(cString: created)
        chmod(path, 0o711)
        outsideDirectory = path
        if !options.keepTemporary {
            _ = InterruptCleanup.register { try? FileManager.default.removeItem(atPath: path) }
        }
        progress(
            "the user postgres cannot reach \(runDirectory) (a parent is closed to others): the shared log lives in \(path)"
        )
        return path
    }

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

    /// Stops the shared log's server and hosts, and removes the temporary directory, unless
    /// asked to keep it.
    func cleanUp() {
        lab?.stop()
        lab = nil
        if options.keepTemporary {
            progress("kept \(runDirectory)" + (outsideDirectory.map { " and \($0)" } ?? ""))
        } else {
            try? FileManager.default.removeItem(atPath: runDirectory)
            if let outsideDirectory { try? FileManager.default.removeItem(atPath: outsideDirectory) }
        }
    }

    /// Creates `path` (mode 0700) unless it exists.
    static func makeDirectory(_ path: String) throws(BenchError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .file(path: path, reason: "cannot create: \(String(cString: strerror(errno)))")
        }
    }

    private static func executableDirectory() -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent
    }
}
