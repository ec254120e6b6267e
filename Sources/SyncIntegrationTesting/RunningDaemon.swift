import Foundation
import Glibc
import ProcessSpawn
import SyncLock
import SyncProtocol
import SyncStore

/// An app's real daemon started for a test: on a private socket and data directory in a private
/// temporary directory (or where the test says), answering once `start` returns, stopped by its
/// pid. Dropping it kills a daemon still running and removes the directory it made.
///
///     let daemon = try RunningDaemon.start(BoardApp.self)
///     let shown = try daemon.runClient("board", ["show"])
///     #expect(try daemon.stop() == 0)
///
/// Its methods block the calling thread while they wait: call them from tests marked as
/// blocking.
public final class RunningDaemon: Sendable {
    /// The daemon's process id.
    public let pid: Int32
    /// The socket it answers on.
    public let socketPath: String
    /// The private directory: its output files, and `data` for a daemon started by `start`.
    public let directory: String
    /// The executable's name (`boardd`).
    public let executable: String
    private let errorPath: String
    private let ownsDirectory: Bool
    private let clientEnvironment: [String: String]
    private let exitStatus = Locked<Int32?>(nil)

    /// How long a daemon may take to answer or to stop before the test fails: generous, against
    /// a hang only.
    public static let patience: Duration = .seconds(60)

    /// Starts `App`'s daemon (`App.identity.daemonName`) with `--socket DIR/SOCKET --data-dir
    /// DIR/data` and `arguments`, `environment` set over the test's. `DIR` is a new private
    /// directory, or `directory` (a stopped daemon's, to start it again on the same data).
    public static func start<App: SyncApp>(
        _ app: App.Type, arguments: [String] = [], environment: [String: String] = [:], in directory: String? = nil
    ) throws(IntegrationFailure) -> RunningDaemon {
        let identity = App.identity
        let owned = directory == nil
        let directory = try BuiltPrograms.directory(directory)
        let socket = directory + "/" + identity.socketFileName
        return try RunningDaemon(
            executable: identity.daemonName,
            arguments: ["--socket", socket, "--data-dir", directory + "/data"] + arguments,
            environment: environment, answeringAt: socket, directory: directory, ownsDirectory: owned,
            clientEnvironment: BuiltPrograms.clientEnvironment(of: identity))
    }

    /// Starts the executable `executable` (an app's daemon, or another's: `todod` beside
    /// `boardd`) with `arguments` and `environment` and waits until
    /// `socket` answers; its output goes to files in `directory` (which the test owns).
    public convenience init(
        executable: String, arguments: [String], environment: [String: String] = [:], answeringAt socket: String,
        directory: String
    ) throws(IntegrationFailure) {
        try self.init(
            executable: executable, arguments: arguments, environment: environment, answeringAt: socket,
            directory: directory, ownsDirectory: false, clientEnvironment: [:])
    }

    private init(
        executable: String, arguments: [String], environment: [String: String], answeringAt socket: String,
        directory: String, ownsDirectory: Bool, clientEnvironment: [String: String]
    ) throws(IntegrationFailure) {
        let stamp = UInt32.random(in: 0...UInt32.max)
        errorPath = "\(directory)/\(executable)-\(stamp).err"
        do {
            pid = try Spawn.start(
                BuiltPrograms.path(executable), arguments, environment: environment,
                stdoutPath: "\(directory)/\(executable)-\(stamp).out", stderrPath: errorPath)
        } catch {
            throw IntegrationFailure(error.description)
        }
        self.executable = executable
        self.socketPath = socket
        self.directory = directory
        self.ownsDirectory = ownsDirectory
        self.clientEnvironment = clientEnvironment
        let deadline = ContinuousClock.now + Self.patience
        while !SocketPath.isAnswering(socket) {
            guard isRunning, ContinuousClock.now < deadline else {
                _ = stop()
                throw IntegrationFailure("\(executable) did not start on \(socket); stderr:\n\(errors)")
            }
            usleep(10_000)
        }
    }

    /// Whether the daemon is still running (a daemon that ended is reaped here).
    public var isRunning: Bool {
        exitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            let signal = raw & 0x7f
            status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
            return false
        }
    }

    /// Everything the daemon wrote to standard error so far.
    public var errors: String { BuiltPrograms.contents(of: errorPath) }

    /// Sends SIGTERM to the pid and waits for the exit (SIGKILL after `patience`); the exit
    /// status, 128 + the signal for a daemon killed by one.
    @discardableResult
    public func stop() -> Int32 {
        if isRunning { kill(pid, SIGTERM) }
        let deadline = ContinuousClock.now + Self.patience
        while isRunning {
            if ContinuousClock.now >= deadline { kill(pid, SIGKILL) }
            usleep(10_000)
        }
        return exitStatus.withLock { $0 } ?? -1
    }

    /// Runs the client `name` with `--socket` this daemon's socket before `arguments`; for a
    /// daemon from `start`, with no socket variable and no autostart of the app's, then
    /// `environment` over them.
    public func runClient(
        _ name: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws(IntegrationFailure) -> ProgramRun {
        try BuiltPrograms.run(
            name, ["--socket", socketPath] + arguments, environment: clientEnvironment.merging(environment) { $1 },
            in: directory)
    }

    deinit {
        if exitStatus.withLock({ $0 }) == nil {
            kill(pid, SIGKILL)
            _ = BuiltPrograms.waitForExit(pid)
        }
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }
}
