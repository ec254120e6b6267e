import Foundation
import Glibc
import ProcessSpawn

/// A child process started with `posix_spawn`: a daemon under test, a load generator, or a
/// command whose whole run is timed.
///
/// Standard input is `/dev/null`; standard output and error go to files in `outputDirectory`
/// (or to `/dev/null` without one). The child starts with an empty signal mask and default
/// dispositions, whatever this process inherited. `deinit` kills and reaps a child still
/// running, so an aborted figure leaves no daemon behind, and so does an interrupted bench
/// (`InterruptCleanup`); a child is killed with the processes it started, so that a daemon
/// under a `--daemon-prefix` tool that does not pass SIGTERM on (`strace`, `perf stat`) goes
/// with it. Used from one thread.
final class Subprocess {
    /// The child's process id.
    let pid: pid_t
    /// The program's file name, for messages.
    let name: String
    /// Where standard output goes (`/dev/null` without an output directory).
    let stdoutPath: String
    /// Where standard error goes (`/dev/null` without an output directory).
    let stderrPath: String
    private var exitCode: Int32?
    private var interruptCleanup: InterruptCleanup.Token?

    /// Starts `executable` with `arguments`; `environment` is added to this process's.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], outputDirectory: String?)
        throws(BenchError)
    {
        name = (executable as NSString).lastPathComponent
        if let outputDirectory {
            let stamp = UInt32.random(in: 0...UInt32.max)
            stdoutPath = "\(outputDirectory)/\(name)-\(stamp).out"
            stderrPath = "\(outputDirectory)/\(name)-\(stamp).err"
        } else {
            stdoutPath = "/dev/null"
            stderrPath = "/dev/null"
        }
        do {
            pid = try Spawn.start(
                executable, arguments, environment: environment, stdoutPath: stdoutPath, stderrPath: stderrPath)
        } catch {
            throw .process(name: executable, reason: "cannot start: \(error.reason)")
        }
        let pid = pid
        interruptCleanup = InterruptCleanup.register { Self.killWithDescendants(pid) }
    }

    deinit {
        if exitCode == nil {
            Self.killWithDescendants(pid)
            wait()
        }
    }

    /// Sends SIGKILL to `pid` and, first, to every process it started that is still its child
    /// (and theirs), as `/proc` lists them.
    private static func killWithDescendants(_ pid: pid_t) {
        let tasks = "/proc/\(pid)/task"
        for task in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            let children = (try? String(contentsOfFile: "\(tasks)/\(task)/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ").compactMap({ pid_t($0) }) { killWithDescendants(child) }
        }
        kill(pid, SIGKILL)
    }

    /// Waits for the child to exit, however long it takes, and returns its exit code (128 +
    /// signal when killed). Blocks in `waitpid`, so the return follows the exit closely.
    @discardableResult
    func wait() -> Int32 {
        if let exitCode { return exitCode }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return record(status)
    }

    /// Waits at most `timeout` seconds for the child to exit; then kills it and throws.
    @discardableResult
    func wait(timeout: Double) throws(BenchError) -> Int32 {
        if let exitCode { return exitCode }
        let deadline = MonotonicClock.now() + UInt64(timeout * 1e9)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if MonotonicClock.now() > deadline {
                Self.killWithDescendants(pid)
                wait()
                throw .timedOut("\(name) (pid \(pid)) did not exit within \(timeout) s; killed it")
            }
            MonotonicClock.sleep(seconds: 0.002)
        }
        return record(status)
    }

    /// Whether the child has not exited yet (reaps it if it has).
    var isRunning: Bool {
        guard exitCode == nil else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            record(status)
            return false
        }
        return true
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        if exitCode == nil { kill(pid, signal) }
    }

    /// What the child wrote to standard error so far.
    var standardError: String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }

    /// Removes the files standard output and error went to.
    func removeOutputFiles() {
        guard stdoutPath != "/dev/null" else { return }
        unlink(stdoutPath)
        unlink(stderrPath)
    }

    /// What the child wrote to standard output so far.
    var standardOutput: String {
        (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
    }

    /// The child's resident set size (`VmRSS` in `/proc/PID/status`), in bytes.
    func residentBytes() throws(BenchError) -> Int {
        try statusBytes("VmRSS")
    }

    /// A size field of `/proc/PID/status` (`VmRSS`, `VmData`, ...), in bytes.
    func statusBytes(_ field: String) throws(BenchError) -> Int {
        let path = "/proc/\(pid)/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .file(path: path, reason: "cannot read (has \(name) exited?)")
        }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            // "VmData:\t  1234 kB"; a wide number leaves no space after the tab.
            if let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({
                Int($0)
            }) {
                return kilobytes * 1024
            }
        }
        throw .file(path: path, reason: "no \(field) line")
    }

    @discardableResult
    private func record(_ status: Int32) -> Int32 {
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitCode = code
        if let interruptCleanup { InterruptCleanup.unregister(interruptCleanup) }
        return code
    }

    /// The path of `name` in the directories of `$PATH`, if it is there and executable.
    static func findInPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
