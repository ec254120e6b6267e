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
}

/// A real `boardd` on a socket and data directory in a private temporary directory, stopped
/// (by its pid) and removed when the test is done with it.
final class BoardDaemon {
    let directory: String
    var socket: String { directory + "/board.sock" }
    private var process: Process?

    init() throws {
        var template = Array("/tmp/board-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ProgramFailure(description: "mkdtemp failed") }
        directory = String(cString: made)
        try start()
    }

    /// Starts boardd and waits until its socket answers.
    func start() throws {
        let process = Process()
        process.executableURL = Programs.directory.appendingPathComponent("boardd")
        process.arguments = ["--socket", socket, "--data-dir", directory + "/data", "--log-level", "warning"]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(60)
        while !SocketPath.isAnswering(socket) {
            guard process.isRunning, Date() < deadline else { throw ProgramFailure(description: "boardd did not start on \(socket)") }
            usleep(10_000)
        }
    }

    /// Sends SIGTERM and waits for the exit (SIGKILL after a generous deadline); the status.
    @discardableResult
    func stop() -> Int32? {
        guard let process else { return nil }
        self.process = nil
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
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
