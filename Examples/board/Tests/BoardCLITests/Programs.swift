import Foundation
import Glibc
import SyncProtocol

/// What a finished program left: its exit status and output.
struct Finished {
    let status: Int32
    let output: String
    let errors: String
}

/// A test's failure to get its programs going.
struct ProgramFailure: Error, CustomStringConvertible {
    let description: String
}

/// The built executables of this package, beside the test binary, and how to run them.
enum Programs {
    /// The directory holding the built executables.
    static let directory: URL = {
        let test = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: test).deletingLastPathComponent()
        while directory.path != "/" && !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("boardd").path) {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// Runs `name` with `arguments` and no standard input, to its end.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        let process = Process()
        process.executableURL = directory.appendingPathComponent(name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "BOARD_SOCKET" }.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Finished(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                        errors: String(decoding: errorData, as: UTF8.self))
    }

    /// A new private directory under /tmp (short, so that socket paths fit in `sun_path`).
    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/board-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ProgramFailure(description: "mkdtemp failed") }
        return String(cString: made)
    }

    /// Starts the daemon `name` and waits (a generous deadline) until `socket` answers.
    static func startDaemon(_ name: String, _ arguments: [String], environment: [String: String]? = nil, answeringAt socket: String) throws -> Process {
        let process = Process()
        process.executableURL = directory.appendingPathComponent(name)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !SocketPath.isAnswering(socket) {
            guard process.isRunning, Date() < deadline else {
                _ = stop(process)
                throw ProgramFailure(description: "\(name) did not start on \(socket)")
            }
            usleep(10_000)
        }
        return process
    }

    /// Sends `process` SIGTERM (by its pid) and waits for its exit, with SIGKILL after a
    /// generous deadline; its status.
    static func stop(_ process: Process) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A real `boardd` on a socket and data directory in a private temporary directory, stopped
/// (by its pid) and removed when the test is done with it.
final class BoardDaemon {
    let directory: String
    var socket: String { directory + "/board.sock" }
    private var process: Process?

    init() throws {
        directory = try Programs.temporaryDirectory()
        try start()
    }

    /// Starts boardd and waits until its socket answers.
    func start() throws {
        process = try Programs.startDaemon(
            "boardd", ["--socket", socket, "--data-dir", directory + "/data", "--log-level", "warning"], answeringAt: socket)
    }

    /// Sends SIGTERM and waits for the exit; the status.
    @discardableResult
    func stop() -> Int32? {
        defer { process = nil }
        return process.map(Programs.stop)
    }

    /// `board --socket SOCKET arguments...`.
    func board(_ arguments: String...) throws -> Finished {
        try Programs.run("board", ["--socket", socket] + arguments)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
