import Foundation
import Glibc

/// A private PostgreSQL 15 server for the shared-log figures: its own cluster (`initdb
/// --no-sync`) in `directory`, its Unix socket there too, and optionally TCP on the given
/// addresses with every client of `trustedNetwork` trusted. fsync, `synchronous_commit` and
/// `wal_sync_method` keep their defaults (on, on, fdatasync): the numbers are those of a
/// durable server. `track_wal_io_timing` is on, so the WAL flushes of a figure can be timed.
///
/// PostgreSQL refuses to run as root: as root, the cluster belongs to the user `postgres` and
/// its programs run through `runuser`; otherwise they run as the current user. `stop()` (and
/// `deinit`, and an interrupt) stops it and then kills by process id whatever of it is left.
final class PostgresServer {
    /// Where Debian's PostgreSQL 15 programs are.
    static let binaries = "/usr/lib/postgresql/15/bin"

    /// The server's directory: `data/` (the cluster), its log and its socket.
    let directory: String
    /// The cluster.
    let dataDirectory: String
    /// The server's port (TCP, and the name of its socket file).
    let port: Int
    /// The TCP addresses it listens on (none: the Unix socket only).
    let listenAddresses: [String]
    /// `postgres --version`, e.g. `postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)`.
    let version: String
    private let logPath: String
    private var interruptCleanup: InterruptCleanup.Token?
    private var stopped = false

    /// Why no private server can run here, or `nil` when one can.
    static var unavailableReason: String? {
        let programs = ["initdb", "pg_ctl", "postgres", "psql", "pg_test_fsync"].map { binaries + "/" + $0 }
        if let missing = programs.first(where: { access($0, X_OK) != 0 }) {
            return "\(missing) is missing (apt-get install postgresql-15)"
        }
        if getuid() == 0 {
            if postgresUser() == nil {
                return "there is no user postgres to run the server as (apt-get install postgresql-15)"
            }
            if access("/usr/sbin/runuser", X_OK) != 0 { return "/usr/sbin/runuser is missing" }
        }
        return nil
    }

    /// Creates a cluster in `directory` (which must not exist, and which the user `postgres`
    /// must be able to reach when running as root) and starts the server.
    init(directory: String, listenAddresses: [String], trustedNetwork: String?) throws(BenchError) {
        self.directory = directory
        dataDirectory = directory + "/data"
        logPath = directory + "/server.log"
        self.listenAddresses = listenAddresses
        port = listenAddresses.isEmpty ? 5432 : try Self.freePort()
        try BenchContext.makeDirectory(directory)
        if getuid() == 0 {
            guard let user = Self.postgresUser(), chown(directory, user.uid, user.gid) == 0 else {
                throw .file(
                    path: directory, reason: "cannot give it to the user postgres: \(String(cString: strerror(errno)))")
            }
        }
        let (dataDirectory, serverDirectory) = (dataDirectory, directory)
        interruptCleanup = InterruptCleanup.register {
            Self.stop(dataDirectory: dataDirectory, in: serverDirectory, mode: "immediate")
        }
        version = try Subprocess.run(Self.binaries + "/postgres", ["--version"], in: directory).trimmingCharacters(
            in: .whitespacesAndNewlines)
        do {
            try asServerUser(
                "initdb",
                ["-D", dataDirectory, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"])
            try appendSettings(trustedNetwork: trustedNetwork)
            try asServerUser("pg_ctl", ["-D", dataDirectory, "-w", "-t", "60", "-l", logPath, "start"])
        } catch {
            stop()
            throw .process(name: "PostgreSQL", reason: "\(error)\nserver log: \(log.suffix(1500))")
        }
    }

    deinit {
        stop()
    }

    /// The server's log so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// A conninfo for `database` as the superuser: over TCP to `address`, or the Unix socket.
    func conninfo(database: String, address: String?) -> String {
        "host=\(address ?? directory) port=\(port) user=postgres dbname=\(database)"
    }

    /// Runs `sql` with psql on the Unix socket (as the superuser) and returns its output:
    /// unaligned, tuples only, one line per row, `|` between fields.
    @discardableResult
    func sql(_ sql: String, database: String = "postgres") throws(BenchError) -> String {
        try Subprocess.run(
            Self.binaries + "/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory, "-p", "\(port)", "-U", "postgres",
                "-d", database, "-c", sql,
            ],
            in: directory)
    }

    /// Stops the server (fast shutdown) and kills by process id whatever of it is still there.
    /// Safe to call more than once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        Self.stop(dataDirectory: dataDirectory, in: directory, mode: "fast")
        if let interruptCleanup { InterruptCleanup.unregister(interruptCleanup) }
    }

    /// Stops the server of `dataDirectory` if it runs (`pg_ctl stop -m mode`, which also
    /// releases its shared memory), then kills by process id whatever of it is still there.
    private static func stop(dataDirectory: String, in directory: String, mode: String) {
        if access(dataDirectory + "/postmaster.pid", F_OK) == 0 {
            try? asServerUser("pg_ctl", ["-D", dataDirectory, "-w", "-t", "30", "-m", mode, "stop"], in: directory)
        }
        killServerProcesses(of: dataDirectory)
    }

    private func asServerUser(_ name: String, _ arguments: [String]) throws(BenchError) {
        try Self.asServerUser(name, arguments, in: directory)
    }

    /// Runs the PostgreSQL program `name` as the server's user, from `directory` (the bench's
    /// own working directory may be closed to that user).
    private static func asServerUser(_ name: String, _ arguments: [String], in directory: String) throws(BenchError) {
        let program = binaries + "/" + name
        if getuid() == 0 {
            try Subprocess.run(
                "/usr/sbin/runuser", ["-u", "postgres", "--", "/usr/bin/env", "-C", directory, program] + arguments,
                in: directory, timeout: 90)
        } else {
            try Subprocess.run("/usr/bin/env", ["-C", directory, program] + arguments, in: directory, timeout: 90)
        }
    }

    /// Adds the figures' settings to `postgresql.conf`, and the trusted network to `pg_hba.conf`.
    private func appendSettings(trustedNetwork: String?) throws(BenchError) {
        let settings = [
            "listen_addresses = '\(listenAddresses.joined(separator: ","))'",
            "port = \(port)",
            "unix_socket_directories = '\(directory)'",
            "fsync = on",
            "synchronous_commit = on",
            "track_wal_io_timing = on",
            // The time each call of a daemon's append function takes in the server (figure 10).
            "track_functions = 'pl'",
            // Segments as files in the cluster: a killed server leaves nothing in /dev/shm.
            "dynamic_shared_memory_type = mmap",
        ]
        try append(settings.joined(separator: "\n") + "\n", to: dataDirectory + "/postgresql.conf")
        if let trustedNetwork {
            try append("host all all \(trustedNetwork) trust\n", to: dataDirectory + "/pg_hba.conf")
        }
    }

    private func append(_ text: String, to path: String) throws(BenchError) {
        guard let file = FileHandle(forWritingAtPath: path) else {
            throw .file(path: path, reason: "cannot open for writing")
        }
        defer { try? file.close() }
        do {
            try file.seekToEnd()
            try file.write(contentsOf: Data(text.utf8))
        } catch {
            throw .file(path: path, reason: "cannot append: \(error)")
        }
    }

    /// Kills every process working in `dataDirectory` (each server process makes the cluster
    /// its working directory; backends outlive a postmaster killed with SIGKILL) and waits
    /// until they are gone.
    private static func killServerProcesses(of dataDirectory: String) {
        for _ in 0..<500 {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            let pids = entries.compactMap(pid_t.init).filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/cwd")) == dataDirectory
            }
            if pids.isEmpty { return }
            for pid in pids { kill(pid, SIGKILL) }
            usleep(10_000)
        }
    }

    /// A TCP port no socket is bound to now (the kernel's pick for port 0).
    private static func freePort() throws(BenchError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            throw .socket(path: "TCP", operation: "socket", reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            throw .socket(path: "TCP port 0", operation: "bind", reason: String(cString: strerror(errno)))
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The uid and gid of the user postgres.
    private static func postgresUser() -> (uid: uid_t, gid: gid_t)? {
        guard let entry = getpwnam("postgres") else { return nil }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }
}
