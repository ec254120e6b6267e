import Glibc
import SyncProtocol

/// Starts `todod` when nothing listens on the socket and no systemd unit is meant to (the way
/// tmux starts its server): the embedded default for someone who never configures anything.
///
/// Shells racing to start it take an exclusive lock on `autostart.lock` beside the socket; the
/// first starts the daemon, the others find it answering once they get the lock. Forbidden by
/// `--no-autostart` or `TODO_NO_AUTOSTART=1`.
enum Autostart {
    /// How long a new daemon has to start answering.
    static let startTimeoutMilliseconds = 10_000

    /// Whether the environment forbids starting a daemon.
    static var isForbiddenByEnvironment: Bool {
        getenv("TODO_NO_AUTOSTART").map { String(cString: $0) } == "1"
    }

    /// Makes sure a daemon answers at `path`, starting one if needed. Returns the pid of a
    /// daemon it started, `nil` if one was already answering.
    static func ensureDaemon(at path: String) throws(CLIError) -> pid_t? {
        if let unit = activeSystemdUnit() {
            throw .unreachable("\(unit) is active but nothing answers at \(path); see `systemctl status todod`")
        }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let directoryPath = directory.isEmpty ? "." : directory
        if mkdir(directoryPath, 0o700) != 0 && errno != EEXIST {
            throw .unreachable("cannot create \(directoryPath) to start todod: \(String(cString: strerror(errno)))")
        }
        let lock = open(directoryPath + "/autostart.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw .unreachable("cannot start todod: \(directoryPath)/autostart.lock: \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        if isAnswering(path) { return nil }
        return try start(at: path, log: directoryPath + "/todod.log")
    }

    private static func start(at path: String, log: String) throws(CLIError) -> pid_t {
        let executable = daemonExecutable()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own session: the daemon outlives this shell and its terminal, and a Ctrl-C in
        // the shell does not reach it.
        posix_spawnattr_setflags(&attributes, spawnInNewSession)
        let words: [String] = [executable, "--socket", path]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw .unreachable("cannot start \(executable): \(String(cString: strerror(result)))") }
        var waited = 0
        while !isAnswering(path) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw .unreachable("todod exited as it started (status \(status >> 8)); see \(log)")
            }
            guard waited < startTimeoutMilliseconds else { throw .unreachable("todod (pid \(pid)) did not answer within 10 s; see \(log)") }
            usleep(10_000)
            waited += 10
        }
        return pid
    }

    /// glibc's `POSIX_SPAWN_SETSID`, which Swift's Glibc module hides behind `_GNU_SOURCE`.
    private static let spawnInNewSession: Int16 = 0x80

    /// `todod` beside this `todo`, else the one on `PATH`.
    private static func daemonExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let sibling = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/todod"
            if access(sibling, X_OK) == 0 { return sibling }
        }
        let searchPath = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") where access("\(directory)/todod", X_OK) == 0 {
            return "\(directory)/todod"
        }
        return "todod"
    }

    /// The todod socket unit systemd runs for this user or the system, if systemd is the init
    /// system and one is active.
    private static func activeSystemdUnit() -> String? {
        guard access("/run/systemd/system", F_OK) == 0 else { return nil }
        for scope in [["--user"], []] where run("systemctl", scope + ["is-active", "--quiet", "todod.socket"]) == 0 {
            return scope.isEmpty ? "todod.socket" : "todod.socket (--user)"
        }
        return nil
    }

    /// Runs a command with no output and returns its exit status (-1 if it cannot run).
    private static func run(_ command: String, _ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([command] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, command, &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    private static func isAnswering(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return SocketPath.withAddress(of: path) { connect(descriptor, $0, $1) } == 0
    }
}
