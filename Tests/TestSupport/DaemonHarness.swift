import Foundation
import Glibc

/// A real `todod` started for one test on a private socket and data directory inside a private
/// temporary directory.
///
/// `init` returns once the socket accepts connections. `stop()` sends SIGTERM and returns the
/// exit code, failing if the daemon reported a libuv handle left open at shutdown; `start()`
/// starts it again on the same socket and data; `deinit` kills a daemon still running and
/// removes the directory.
public final class DaemonHarness: @unchecked Sendable {
    /// The private directory holding the socket, the data directory and captured output.
    public let directory: String
    /// The daemon's socket.
    public let socketPath: String
    /// The daemon's data directory (the journal).
    public let dataDirectory: String
    /// The current daemon process.
    public private(set) var process: ChildProcess
    private let arguments: [String]
    private let environment: [String: String]
    private let launcher: [String]

    /// Starts `todod --socket DIR/SOCKETNAME --data-dir DATA` plus `arguments`, with
    /// `environment` added to the test's. `DATA` is `dataDirectory`, else `DIR/data`; one given
    /// here is the test's to remove. `launcher` is what starts it (`ip netns exec NAME` runs
    /// it in a network namespace; `exec` keeps the process id the daemon's).
    public init(
        arguments: [String] = [], socketName: String = "todod.sock", dataDirectory: String? = nil,
        environment: [String: String] = [:], launcher: [String] = []
    ) throws {
        directory = try makeTemporaryDirectory()
        socketPath = directory + "/" + socketName
        self.dataDirectory = dataDirectory ?? directory + "/data"
        self.arguments = ["--socket", socketPath, "--data-dir", self.dataDirectory] + arguments
        self.environment = environment
        self.launcher = launcher
        process = try Self.launch(
            self.arguments, environment: environment, launcher: launcher, socketPath: socketPath, directory: directory)
    }

    /// Starts the daemon again (after `stop()` or a kill) on the same socket and data.
    public func start() throws {
        process = try Self.launch(
            arguments, environment: environment, launcher: launcher, socketPath: socketPath, directory: directory)
    }

    /// Kills the daemon with SIGKILL, as a crash would, and reaps it.
    public func crash() throws {
        process.send(SIGKILL)
        _ = try process.waitForExit()
    }

    private static func launch(
        _ arguments: [String], environment: [String: String], launcher: [String], socketPath: String,
        directory: String
    ) throws -> ChildProcess {
        let command = launcher + [Binaries.path("todod")] + arguments
        let process = try ChildProcess(
            command[0], Array(command.dropFirst()), environment: environment, outputDirectory: directory)
        try eventually("todod did not start listening on \(socketPath); stderr:\n\(process.standardError)") {
            if !process.isRunning { throw TestFailure("todod exited at start; stderr:\n\(process.standardError)") }
            return isAnswering(socketPath) ? true : nil
        }
        return process
    }

    deinit {
        if process.isRunning { process.send(SIGKILL) }
        _ = try? process.waitForExit(timeout: 10)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Sends SIGTERM and returns the daemon's exit code; fails if the daemon left a libuv
    /// handle open (see `waitForStop()`).
    @discardableResult
    public func stop() throws -> Int32 {
        process.send(SIGTERM)
        return try waitForStop()
    }

    /// Waits for the daemon to exit after a signal the test sent and returns its exit code;
    /// fails if its log names a libuv handle left open at shutdown.
    @discardableResult
    public func waitForStop(timeout: Double = 30) throws -> Int32 {
        let status = try process.waitForExit(timeout: timeout)
        try Self.requireNoLeftoverHandles(in: process.standardError)
        return status
    }

    /// The start of the error line `todod` logs for each libuv handle still open when its
    /// event loop ends (a bug); the handle's type follows.
    public static let leftoverHandleLine = "bug: libuv handle left open at shutdown: "

    /// The types of the libuv handles a daemon's log `text` reports left open at shutdown.
    public static func leftoverHandles(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            line.range(of: leftoverHandleLine).map { String(line[$0.upperBound...]) }
        }
    }

    /// Fails, naming them, if the daemon's log `text` reports libuv handles left open.
    public static func requireNoLeftoverHandles(in text: String) throws {
        let leftovers = leftoverHandles(in: text)
        guard leftovers.isEmpty else {
            throw TestFailure("todod left libuv handles open at shutdown: \(leftovers.joined(separator: ", "))")
        }
    }

    /// Runs `todo --socket SOCKET arguments...` to completion.
    public func todo(_ arguments: String...) throws -> CommandResult {
        try run(arguments)
    }

    /// Runs `todo --socket SOCKET arguments` to completion, waiting at most `timeout` seconds
    /// (a deadline against hanging, not a measure).
    public func run(_ arguments: [String], timeout: Double = 30) throws -> CommandResult {
        let child = try startTodo(arguments)
        let status = try child.waitForExit(timeout: timeout)
        return CommandResult(status: status, output: child.standardOutput, error: child.standardError)
    }

    /// Starts `todo --socket SOCKET arguments` without waiting for it. It never starts a
    /// daemon of its own (`TODO_NO_AUTOSTART=1`): the harness owns the daemon.
    public func startTodo(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(
            Binaries.path("todo"), ["--socket", socketPath] + arguments, environment: ["TODO_NO_AUTOSTART": "1"],
            outputDirectory: directory)
    }

    /// Opens a raw protocol connection and completes the handshake.
    public func greetedClient(name: String = "test/1") throws -> WireClient {
        let client = try WireClient(path: socketPath)
        try client.hello(name: name)
        return client
    }

    /// Whether something accepts connections on `path`.
    public static func isAnswering(_ path: String) -> Bool {
        (try? WireClient(path: path)) != nil
    }
}

/// What a finished `todo` command did.
public struct CommandResult: Sendable {
    /// Exit code.
    public let status: Int32
    /// Standard output.
    public let output: String
    /// Standard error.
    public let error: String

    /// A result with every field given.
    public init(status: Int32, output: String, error: String) {
        self.status = status
        self.output = output
        self.error = error
    }
}

/// Where the built executables are: beside the test binary.
public enum Binaries {
    /// The path of the built executable `name`.
    public static func path(_ name: String) -> String {
        let testBinary =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
        // The test binary may sit inside a bundle directory (NAME.xctest/...); walk up to the bin dir.
        while directory.path != "/"
            && !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path)
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent(name).path
    }
}

/// A new private directory (in /dev/shm or under /tmp, see `BuiltPrograms.temporaryDirectory`):
/// the one apps' integration tests get.
public func makeTemporaryDirectory() throws -> String {
    try BuiltPrograms.temporaryDirectory()
}
