import Glibc
import SyncProtocol
import SyncStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Starting an app's daemon when nothing answers on its socket and no systemd socket unit is
/// meant to (the way tmux starts its server): the embedded default for someone who never
/// configures anything. Opt-in: pass one to `SyncClient.connect(to:autostart:)`.
///
/// Clients racing to start it take an exclusive lock on `autostart.lock` beside the socket;
/// the first starts the daemon, the others find it answering once they get the lock. The
/// daemon runs in its own session with its output in `DAEMON.log` beside the socket. Setting
/// the identity's `noAutostartVariable` (`TODO_NO_AUTOSTART=1`) forbids it.
public struct DaemonAutostart: Sendable {
    /// The daemon's executable; nil: the identity's daemon beside this program, else on `PATH`.
    public var executable: String?
    /// How long a new daemon has to start answering, in milliseconds.
    public var startTimeoutMilliseconds = 10_000
    /// Called with the daemon's pid and socket once a daemon this client started answers.
    public var announce: (@Sendable (_ pid: Int32, _ socketPath: String) -> Void)?

    /// An autostart of the identity's daemon found beside this program or on `PATH`.
    public init(executable: String? = nil, announce: (@Sendable (_ pid: Int32, _ socketPath: String) -> Void)? = nil) {
        self.executable = executable
        self.announce = announce
    }

    /// Whether `environment` (default: this process's) forbids starting `identity`'s daemon.
    public static func isForbidden(
        for identity: AppIdentity, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        environment[identity.noAutostartVariable] == "1"
    }

    /// Makes sure `identity`'s daemon answers at `path`, starting one if needed. Returns the
    /// pid of a daemon it started, nil if one was already answering.
    public func ensureDaemon(of identity: AppIdentity, at path: String) throws(SyncClientError) -> Int32? {
        let name = identity.daemonName
        func failure(_ reason: String) -> SyncClientError { .daemonNotStarted(path: path, reason: reason) }
        if let unit = SystemdSocketUnit.active(named: identity.socketUnitName, listeningOn: path) {
            throw failure("\(unit) is active but nothing answers; see `systemctl status \(identity.serviceUnitName)`")
        }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let directoryPath = directory.isEmpty ? "." : directory
        if mkdir(directoryPath, 0o700) != 0 && errno != EEXIST {
            throw failure("cannot create \(directoryPath): \(String(cString: strerror(errno)))")
        }
        try Self.checkOwnership(of: directoryPath, failure: failure)
        // O_NOFOLLOW: a link planted here must not redirect what this user opens.
        let lock = open(directoryPath + "/autostart.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw failure("\(directoryPath)/autostart.lock: \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        var waited = 0
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waited < startTimeoutMilliseconds else {
                throw failure("another client has been starting \(name) for too long (\(directoryPath)/autostart.lock)")
            }
            usleep(10_000)
            waited += 10
        }
        if SocketPath.isAnswering(path) { return nil }
        let started = try start(
            executable ?? Self.executable(named: name), at: path, log: "\(directoryPath)/\(name).log", failure: failure)
        announce?(started, path)
        return started
    }

    /// The socket's directory must be this user's and closed to others (as the daemon checks
    /// too): in a shared place such as /tmp, another user could otherwise prepare it.
    private static func checkOwnership(of directory: String, failure: (String) -> SyncClientError)
        throws(SyncClientError)
    {
        var status = stat()
        guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw failure("\(directory) is not a directory")
        }
        guard status.st_uid == getuid(), status.st_mode & 0o022 == 0 else {
            throw failure("\(directory) belongs to another user or others can write to it")
        }
    }

    private func start(_ executable: String, at path: String, log: String, failure: (String) -> SyncClientError)
        throws(SyncClientError) -> Int32
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The daemon outlives this program: it must not keep the descriptors this program
        // has open (a pipe its caller reads to the end would never end).
        for descriptor in Self.openDescriptors() where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own session: the daemon outlives this shell and its terminal, and a Ctrl-C in
        // the shell does not reach it.
        posix_spawnattr_setflags(&attributes, Self.spawnInNewSession)
        let words: [String] = [executable, "--socket", path]
        let argv = words.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw failure(
                "cannot start \(executable) (looked beside this program and on PATH): \(String(cString: strerror(result)))"
            )
        }
        var waited = 0
        while !SocketPath.isAnswering(path) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw failure("\(executable) exited as it started (status \(status >> 8)); see \(log)")
            }
            guard waited < startTimeoutMilliseconds else {
                throw failure(
                    "\(executable) (pid \(pid)) did not answer within \(startTimeoutMilliseconds / 1000) s; see \(log)")
            }
            usleep(10_000)
            waited += 10
        }
        return pid
    }

    /// The descriptors open in this process (from /proc/self/fd), without the one reading it.
    private static func openDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        let own = dirfd(directory)
        var found: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let descriptor = Int32(name), descriptor != own { found.append(descriptor) }
        }
        closedir(directory)
        return found
    }

    /// glibc's `POSIX_SPAWN_SETSID`, which Swift's Glibc module hides behind `_GNU_SOURCE`.
    private static let spawnInNewSession: Int16 = 0x80

    /// `name` beside this program, else the one on `PATH`.
    private static func executable(named name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let sibling =
                own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/"
                + name
            if access(sibling, X_OK) == 0 { return sibling }
        }
        let searchPath = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") where access("\(directory)/\(name)", X_OK) == 0 {
            return "\(directory)/\(name)"
        }
        return name
    }
}
