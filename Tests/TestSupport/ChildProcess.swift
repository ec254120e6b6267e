import Foundation
import Glibc
import ProcessSpawn

/// A child process started with `posix_spawn`, its standard output and error captured to files.
///
/// The child starts with an empty signal mask and default signal dispositions whatever the test
/// runner has blocked, so SIGTERM reaches it. `deinit` kills a child that is still running and
/// reaps it, so no test leaves a process behind.
public final class ChildProcess: @unchecked Sendable {
    /// The child's process id.
    public let pid: pid_t
    /// Where standard output goes.
    public let stdoutPath: String
    /// Where standard error goes.
    public let stderrPath: String
    private var exitStatus: Int32?
    private let lock = NSLock()

    /// Starts `executable` with `arguments`, in `environment` (added to the current one).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], outputDirectory: String
    ) throws {
        let name = URL(fileURLWithPath: executable).lastPathComponent
        let stamp = UUID().uuidString.prefix(8)
        stdoutPath = "\(outputDirectory)/\(name)-\(stamp).out"
        stderrPath = "\(outputDirectory)/\(name)-\(stamp).err"

        do {
            pid = try Spawn.start(
                executable, arguments, environment: environment, stdoutPath: stdoutPath, stderrPath: stderrPath)
        } catch {
            throw TestFailure(error.description)
        }
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Everything the child wrote to standard output so far.
    public var standardOutput: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    /// Everything the child wrote to standard error so far.
    public var standardError: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the child to exit; returns its exit code (128 + signal when killed). After
    /// `timeout` seconds the child is killed with SIGKILL and the test fails.
    @discardableResult
    public func waitForExit(timeout: Double = 30) throws -> Int32 {
        if let exitStatus = lock.withLock({ exitStatus }) { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                lock.withLock { exitStatus = 137 }
                throw TestFailure("process \(pid) did not exit within \(timeout) s; killed")
            }
            usleep(2_000)
        }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        lock.withLock { exitStatus = code }
        return code
    }

    /// Whether the child is still running.
    public var isRunning: Bool {
        lock.withLock { exitStatus == nil } && processIsAlive(pid)
    }

    /// Waits until standard output satisfies `condition`; fails after `timeout` seconds.
    @discardableResult
    public func waitForOutput(timeout: Double = 30, _ condition: (String) -> Bool) throws -> String {
        try eventually(timeout: timeout, "output of process \(pid) never matched; it was:\n\(standardOutput)") {
            let output = standardOutput
            return condition(output) ? output : nil
        }
    }
}

/// Whether process `pid` exists and is not a zombie (an exited process nobody reaped yet: here
/// PID 1 does not reap orphans, so a daemon that forked away stays one after it exits).
public func processIsAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 || errno == EPERM else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
    guard let close = stat.lastIndex(of: ")") else { return true }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
}

/// A failure raised by test helpers, with a message saying what did not happen.
public struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}

/// Polls `probe` until it returns a value; fails after `timeout` seconds. Deadlines here only
/// stop a broken test from hanging; they are never what a test asserts.
///
/// The pause between polls doubles from 5 ms to 50 ms: a probe that reads a daemon's whole log
/// (a shared-log test's, at debug level) 200 times a second for a minute cost the test suite
/// more CPU than the daemons it watched.
@discardableResult
public func eventually<T>(timeout: Double = 30, _ failure: @autoclosure () -> String, _ probe: () throws -> T?) throws
    -> T
{
    let deadline = Date().addingTimeInterval(timeout)
    var pause: useconds_t = 5_000
    while true {
        if let value = try probe() { return value }
        if Date() > deadline { throw TestFailure(failure()) }
        usleep(pause)
        pause = min(pause * 2, 50_000)
    }
}
