import Foundation
import Glibc

/// A real `redis-server` configured as the figures' baseline: Unix socket only, every write
/// appended and fsynced before the reply (`appendonly yes`, `appendfsync always`), no RDB
/// snapshots, data in the run's temporary directory.
final class RedisServer {
    /// The server's socket.
    let socketPath: String
    /// The server's process.
    let process: Subprocess
    private let benchmarkPath: String
    private let directory: String

    /// Starts redis-server in `directory` and waits until it answers PING.
    init(_ context: BenchContext, directory: String) throws(BenchError) {
        guard let server = Subprocess.findInPath("redis-server"),
            let benchmark = Subprocess.findInPath("redis-benchmark")
        else {
            throw BenchError.missingProgram(
                name: "redis-server and redis-benchmark", looked: "$PATH; scripts/bench installs them with apt-get")
        }
        try BenchContext.makeDirectory(directory)
        self.directory = directory
        socketPath = directory + "/redis.sock"
        benchmarkPath = benchmark
        process = try Subprocess(
            server,
            [
                "--port", "0", "--unixsocket", socketPath, "--unixsocketperm", "700",
                "--appendonly", "yes", "--appendfsync", "always", "--save", "",
                "--dir", directory, "--daemonize", "no", "--logfile", directory + "/redis.log",
            ], outputDirectory: directory)
        let socketPath = socketPath
        let process = process
        try MonotonicClock.poll("redis-server to answer on \(socketPath)", timeout: 30) {
            () throws(BenchError) -> Bool? in
            guard process.isRunning else {
                throw BenchError.process(name: "redis-server", reason: "exited at start; see \(directory)/redis.log")
            }
            guard let socket = try? RESPSocket(path: socketPath) else { return nil }
            return (try? socket.call(["PING"])) == .simple("PONG") ? true : nil
        }
    }

    /// Runs `redis-benchmark -t set -d 128` with `clients` connections of `pipeline` requests
    /// each, `requests` in all; returns requests per second as redis-benchmark reports it.
    func benchmarkSet(clients: Int, pipeline: Int, requests: Int) throws(BenchError) -> Double {
        let child = try Subprocess(
            benchmarkPath,
            [
                "-s", socketPath, "-t", "set", "-d", "128", "-c", "\(clients)", "-P", "\(pipeline)", "-n",
                "\(requests)", "--csv",
            ], outputDirectory: directory)
        let code = try child.wait(timeout: 600)
        let output = child.standardOutput
        guard code == 0 else {
            throw .process(name: "redis-benchmark", reason: "exited with \(code): \(child.standardError.suffix(500))")
        }
        // --csv prints a header line, then "SET","<rps>",... with the figures quoted.
        for line in output.split(whereSeparator: \.isNewline) where line.hasPrefix("\"SET\"") {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            if fields.count > 1, let rate = Double(fields[1]) { return rate }
        }
        throw .unexpectedReply(from: "redis-benchmark", reply: String(output.prefix(500)))
    }

    /// The path of `redis-cli`, for the whole-process figure.
    func cliPath() throws(BenchError) -> String {
        guard let path = Subprocess.findInPath("redis-cli") else {
            throw .missingProgram(name: "redis-cli", looked: "$PATH")
        }
        return path
    }

    /// Stops the server (SIGTERM: Redis flushes the append-only file and exits).
    func stop() throws(BenchError) {
        process.send(SIGTERM)
        try process.wait(timeout: 60)
    }

    deinit {
        process.send(SIGKILL)
        process.wait()
    }
}

/// Which Redis a run measured, for the report.
enum RedisVersion {
    /// `redis-server --version`'s first words, e.g. `Redis server v=7.0.15`.
    static func describe(server: String, directory: String) -> String {
        guard let child = try? Subprocess(server, ["--version"], outputDirectory: directory),
            (try? child.wait(timeout: 10)) == 0
        else {
            return "redis-server (version unknown)"
        }
        return child.standardOutput.split(separator: " ").prefix(3).joined(separator: " ")
            + ", appendonly yes, appendfsync always"
    }
}
