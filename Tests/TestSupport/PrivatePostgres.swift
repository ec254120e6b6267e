import Foundation
import Glibc

/// A private PostgreSQL 15 server for one test: its own cluster in a new temporary directory,
/// listening only on a Unix socket in that directory (no TCP), run as the `postgres` user
/// (the server refuses to run as root).
///
/// `start()` returns once the server accepts connections; `close()` stops it, kills whatever
/// of it is left by process id, and removes the directory. Call `close()` in a `defer` right
/// after `start()`; `deinit` closes a server a test forgot. Needs root and Debian's
/// `postgresql` package: tests check `isAvailable` and skip with `skipReason` otherwise.
///
///     let postgres = try PrivatePostgres.start()
///     defer { postgres.close() }
///     let one = try postgres.psql("select 1")  // "1"
///
/// Measured on this project's 2-core machine (busy with other builds): `start()` about 0.2 s
/// (a copy of a template cluster, see `makeCluster()`; the first in a build directory runs
/// `initdb`: 0.6 s, up to 3 s when the machine is loaded), `restart(mode: .fast)` 0.23 s,
/// `stop(mode: .immediate)` 0.11 s, `startAgain()` after it 0.12 s (up to 2 s when the disk is
/// busy: recovery syncs the cluster), `close()` 0.18 s, `psql("select 1")` 0.015 s.
public final class PrivatePostgres: @unchecked Sendable {
    /// How `stop(mode:)` shuts the server down (`pg_ctl -m`).
    public enum StopMode: String, Sendable {
        /// Clients are disconnected, open transactions rolled back, a checkpoint is written.
        case fast
        /// Every server process quits at once, as in a crash: the next start runs recovery.
        case immediate
    }

    /// The temporary directory holding everything (the socket is here too).
    public let directory: String
    /// The directory of the server's Unix socket (`unix_socket_directories`).
    public let socketDirectory: String
    /// The cluster (`PGDATA`).
    public let dataDirectory: String
    /// The server's log file.
    public let logPath: String
    /// The libpq conninfo string a client connects with, as the superuser `postgres`.
    public let conninfo: String
    /// The conninfo for the same database over TCP to `address` (one of `listen_addresses`).
    public func conninfo(address: String, as user: String = "postgres") -> String {
        "host=\(address) user=\(user) dbname=postgres connect_timeout=2"
    }
    /// The conninfo for `database` on this server as `user` (trusted, as every local user is).
    public func conninfo(as user: String, database: String = "postgres") -> String {
        "host=\(directory) user=\(user) dbname=\(database)"
    }
    /// The settings passed to the server as `-c KEY=VALUE` (the defaults with the test's
    /// `extraSettings` over them).
    public let settings: [String: String]

    private let lock = NSLock()
    private var closed = false

    private init(directory: String, settings: [String: String]) {
        self.directory = directory
        socketDirectory = directory
        dataDirectory = directory + "/data"
        logPath = directory + "/log"
        conninfo = "host=\(directory) user=postgres dbname=postgres"
        self.settings = settings
    }

    deinit {
        close()
    }

    /// Whether a private server can run here: as root, with the user `postgres` and the
    /// PostgreSQL 15 binaries (Debian's `postgresql` package) present.
    public static var isAvailable: Bool { skipReason.isEmpty }

    /// Why `isAvailable` is false, for a test's skip message; empty when it is true.
    public static var skipReason: String {
        if getuid() != 0 { return "needs root: the server runs as the user postgres, started with runuser" }
        if postgresUser() == nil { return "there is no user postgres (apt-get install postgresql)" }
        let tools = ["initdb", "pg_ctl", "postgres", "psql"].map { binaries + "/" + $0 } + ["/usr/sbin/runuser"]
        if let missing = tools.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
            return "\(missing) is missing (apt-get install postgresql)"
        }
        return ""
    }

    /// Where Debian's PostgreSQL 15 server programs are.
    static let binaries = "/usr/lib/postgresql/15/bin"

    /// Creates a cluster in a new temporary directory and starts the server on it.
    ///
    /// The server gets `listen_addresses=''` (no TCP), `unix_socket_directories` = the
    /// directory, `fsync=on`, and `dynamic_shared_memory_type=mmap` (its segments are files in
    /// the cluster, so even a killed server leaves no shared-memory segment behind); `extraSettings`
    /// (for example `["fsync": "off"]` for a test that asks for speed over durability) are
    /// passed over them. Throws, leaving nothing behind, when PostgreSQL is not available, a
    /// setting name is not a plain identifier, or the server does not start (the message has
    /// its log).
    /// `trustedNetwork` (`10.X.0.0/16`) lets clients from that network in over TCP without a
    /// password, for servers that listen on addresses (`listen_addresses` in `extraSettings`).
    public static func start(extraSettings: [String: String] = [:], trustedNetwork: String? = nil) throws
        -> PrivatePostgres
    {
        guard isAvailable else { throw TestFailure("PrivatePostgres: \(skipReason)") }
        if let bad = extraSettings.keys.first(where: { !isSettingName($0) }) {
            throw TestFailure("PrivatePostgres: \"\(bad)\" is not a setting name (letters, digits, _ and . only)")
        }
        let directory = try makeTemporaryDirectory()
        let defaults = [
            "listen_addresses": "", "unix_socket_directories": directory, "fsync": "on",
            "dynamic_shared_memory_type": "mmap",
        ]
        let server = PrivatePostgres(directory: directory, settings: defaults.merging(extraSettings) { $1 })
        do {
            guard let user = postgresUser(), chown(directory, user.uid, user.gid) == 0 else {
                throw TestFailure(
                    "PrivatePostgres: cannot give \(directory) to the user postgres: \(String(cString: strerror(errno)))"
                )
            }
            try server.makeCluster()
            if let trustedNetwork {
                guard let hba = FileHandle(forWritingAtPath: server.dataDirectory + "/pg_hba.conf") else {
                    throw TestFailure("PrivatePostgres: cannot open pg_hba.conf")
                }
                hba.seekToEndOfFile()
                hba.write(Data("host all all \(trustedNetwork) trust\n".utf8))
                hba.closeFile()
            }
            try server.startAgain()
        } catch {
            server.close()
            throw error
        }
        return server
    }

    /// The process id of the running postmaster, from `postmaster.pid`; nil when the server is
    /// not running (the file is missing, or names a process that is gone).
    public var postmasterPID: pid_t? {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
            let line = text.split(separator: "\n").first, let pid = pid_t(line), processIsAlive(pid)
        else { return nil }
        return pid
    }

    /// Everything the server logged so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Stops the server (`pg_ctl stop -m MODE`) and returns once its postmaster is gone.
    public func stop(mode: StopMode = .fast) throws {
        let postmaster = postmasterPID
        try asPostgres(Self.binaries + "/pg_ctl", ["-D", dataDirectory, "-w", "-t", "60", "-m", mode.rawValue, "stop"])
        if let postmaster {
            try eventually("the postmaster (pid \(postmaster)) outlived pg_ctl stop") {
                processIsAlive(postmaster) ? nil : true
            }
        }
    }

    /// Starts the server again on the same cluster and settings (after `stop(mode:)`, or after
    /// its processes were killed); returns once it accepts connections.
    public func startAgain() throws {
        let options = settings.sorted { $0.key < $1.key }.map { "-c " + Self.shellQuoted("\($0.key)=\($0.value)") }
            .joined(separator: " ")
        do {
            try asPostgres(
                Self.binaries + "/pg_ctl",
                ["-D", dataDirectory, "-w", "-t", "60", "-l", logPath, "-o", options, "start"])
        } catch {
            throw TestFailure("\(error)\nserver log:\n\(log)")
        }
        guard postmasterPID != nil else {
            throw TestFailure("PrivatePostgres: started, but no postmaster runs; server log:\n\(log)")
        }
    }

    /// Stops the server with `mode` and starts it again.
    public func restart(mode: StopMode = .fast) throws {
        try stop(mode: mode)
        try startAgain()
    }

    /// Stops the server at once if it runs, kills by process id whatever of it is still alive
    /// (every server process works in the cluster directory, and backends outlive a postmaster
    /// killed with SIGKILL, each in a process group of its own), waits until none is, and
    /// removes the directory. Safe to call more than once.
    public func close() {
        let wasClosed = lock.withLock {
            defer { closed = true }
            return closed
        }
        if wasClosed { return }
        if postmasterPID != nil {
            try? asPostgres(
                Self.binaries + "/pg_ctl", ["-D", dataDirectory, "-w", "-t", "10", "-m", "immediate", "stop"])
        }
        let leftovers = serverProcesses()
        if !leftovers.isEmpty {
            for pid in leftovers { kill(pid, SIGKILL) }
            _ = try? eventually("server processes \(leftovers) survived SIGKILL") {
                leftovers.contains(where: processIsAlive) ? nil : true
            }
        }
        removeSharedMemory()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The live processes working in the cluster directory: the postmaster and its children.
    public func serverProcesses() -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap(pid_t.init).filter { pid in
            let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")
            return cwd == dataDirectory && processIsAlive(pid)
        }
    }

    /// The stale System V interlock segment a killed postmaster leaves (its id is on line 7
    /// of `postmaster.pid`), removed once nothing is attached to it.
    private func removeSharedMemory() {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8) else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 6 else { return }
        let fields = lines[6].split(separator: " ")
        guard fields.count == 2, let key = key_t(fields[0]), let id = Int32(fields[1]) else { return }
        var info = shmid_ds()
        if shmctl(id, IPC_STAT, &info) == 0 && info.shm_perm.__key == key && info.shm_nattch == 0 {
            shmctl(id, IPC_RMID, nil)
        }
    }

    /// Runs `executable arguments` as the user postgres, from the temporary directory (the
    /// test's own directory may be closed to that user); throws with its output on failure.
    func asPostgres(_ executable: String, _ arguments: [String]) throws {
        let command = ([URL(fileURLWithPath: executable).lastPathComponent] + arguments).joined(separator: " ")
        _ = try run(
            "/usr/sbin/runuser", ["-u", "postgres", "--", "/usr/bin/env", "-C", directory, executable] + arguments,
            describedAs: command)
    }

    /// Runs `executable arguments` to completion; returns its standard output, or throws with
    /// its standard error when it fails (`command` names it there). Its output files are removed.
    func run(_ executable: String, _ arguments: [String], describedAs command: String) throws -> String {
        let child = try ChildProcess(executable, arguments, outputDirectory: directory)
        defer {
            unlink(child.stdoutPath)
            unlink(child.stderrPath)
        }
        let status = try child.waitForExit(timeout: 90)
        guard status == 0 else {
            throw TestFailure("PrivatePostgres: `\(command)` failed (exit \(status)): \(child.standardError)")
        }
        return child.standardOutput
    }

    /// `text` in single quotes for `/bin/sh` (pg_ctl runs the server through it with `-o`).
    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func isSettingName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
    }

    /// The uid and gid of the user postgres (`getpwnam_r`: tests run in parallel).
    private static func postgresUser() -> (uid: uid_t, gid: gid_t)? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r("postgres", &entry, &buffer, buffer.count, &found) == 0, found != nil else { return nil }
        return (entry.pw_uid, entry.pw_gid)
    }
}
