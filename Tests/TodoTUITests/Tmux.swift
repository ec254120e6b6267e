import Foundation
import Glibc
import TestSupport

/// A private tmux server for one test (its own socket name, no configuration file), driving
/// real terminals: sessions of a given size, keys, screen captures. `deinit` kills the server
/// and with it everything running in its panes.
final class Tmux {
    /// The tmux executable, if installed.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tmux" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    private let socketName = "todo-tui-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    private let directory: String
    private let tmux: String

    init(directory: String) throws {
        guard let tmux = Self.executable else { throw TestFailure("tmux is not installed") }
        self.tmux = tmux
        self.directory = directory
    }

    deinit {
        _ = try? run(["kill-server"])
    }

    /// Runs `tmux -L SOCKET -f /dev/null -u arguments` (UTF-8 forced, TERM set: CI may have
    /// neither) and returns its standard output; fails on a non-zero exit.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let child = try ChildProcess(
            tmux, ["-L", socketName, "-f", "/dev/null", "-u"] + arguments, environment: ["TERM": "xterm-256color"],
            outputDirectory: directory)
        let status = try child.waitForExit()
        guard status == 0 else {
            throw TestFailure("tmux \(arguments.joined(separator: " ")) exited \(status): \(child.standardError)")
        }
        return child.standardOutput
    }

    /// Starts a detached session `name` of `columns` × `rows` running `command` under `sh`,
    /// with `environment` set.
    func newSession(_ name: String, columns: Int, rows: Int, environment: [String: String], command: String) throws {
        let variables = environment.sorted { $0.key < $1.key }.flatMap { ["-e", "\($0.key)=\($0.value)"] }
        try run(["new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows)] + variables + [command])
    }

    /// What session `name` shows, one string per row.
    func capture(_ name: String) throws -> [String] {
        try run(["capture-pane", "-p", "-t", name]).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
    }

    /// A tmux format (`#{alternate_on}`) evaluated for session `name`.
    func display(_ name: String, _ format: String) throws -> String {
        try run(["display-message", "-p", "-t", name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends keys (tmux key names such as `Space`, `Enter`) to session `name`.
    func sendKeys(_ name: String, _ keys: String...) throws {
        try run(["send-keys", "-t", name] + keys)
    }

    /// Types `text` literally into session `name`.
    func type(_ name: String, _ text: String) throws {
        try run(["send-keys", "-t", name, "-l", text])
    }

    /// Waits until session `name`'s screen satisfies `condition`; returns it.
    @discardableResult
    func waitForScreen(_ name: String, _ what: String, _ condition: ([String]) -> Bool) throws -> [String] {
        var last: [String] = []
        return try eventually("\(what) in session \(name); it shows:\n\(last.joined(separator: "\n"))") {
            last = try capture(name)
            return condition(last) ? last : nil
        }
    }

    /// The process running in session `name`'s pane below its shell: the child of the pane's
    /// process, found through /proc.
    func childOfPane(_ name: String) throws -> pid_t {
        let shell = try display(name, "#{pane_pid}")
        return try eventually("no child of the pane's shell \(shell)") {
            for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
                guard let pid = pid_t(entry),
                    let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { continue }
                let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
                if fields.count > 1, fields[1] == shell { return pid }
            }
            return nil
        }
    }
}
