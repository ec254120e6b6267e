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
        let test =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: test).deletingLastPathComponent()
        while directory.path != "/"
            && !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("boardd").path)
        {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// Runs `name` with `arguments` and no standard input, to its end. `board` never starts a
    /// daemon unless `environment` sets `BOARD_NO_AUTOSTART` to something else than 1.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
        let process = Process()
        process.executableURL = directory.appendingPathComponent(name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "BOARD_SOCKET" }
            .merging(["BOARD_NO_AUTOSTART": "1"]) { $1 }.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Finished(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs `name` as `run` does, but spawned directly with its output in files in
    /// `directory`: for a `board` that may start a daemon, which inherits what `board` holds
    /// open. (Foundation's `Process` learns of a child's exit through a socket the child holds,
    /// so a daemon started by that child would keep it waiting.)
    static func runSpawned(_ name: String, _ arguments: [String], environment: [String: String], in directory: String)
        throws -> Finished
    {
        let outputPath = directory + "/\(name).out"
        let errorPath = directory + "/\(name).err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let executable = Programs.directory.appendingPathComponent(name).path
        let merged = ProcessInfo.processInfo.environment.filter { $0.key != "BOARD_SOCKET" }
            .merging(["BOARD_NO_AUTOSTART": "1"]) { $1 }.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for argument in argv { free(argument) }
            for variable in envp { free(variable) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw ProgramFailure(description: "cannot start \(name): \(String(cString: strerror(result)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return Finished(
            status: (status >> 8) & 0xff, output: try String(contentsOfFile: outputPath, encoding: .utf8),
            errors: try String(contentsOfFile: errorPath, encoding: .utf8))
    }

    /// A new private directory under /tmp (short, so that socket paths fit in `sun_path`).
    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/board-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ProgramFailure(description: "mkdtemp failed") }
        return String(cString: made)
    }

    /// Starts the daemon `name` and waits (a generous deadline) until `socket` answers.
    static func startDaemon(
        _ name: String, _ arguments: [String], environment: [String: String]? = nil, answeringAt socket: String
    ) throws -> Process {
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
            "boardd", ["--socket", socket, "--data-dir", directory + "/data", "--log-level", "warning"],
            answeringAt: socket)
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
