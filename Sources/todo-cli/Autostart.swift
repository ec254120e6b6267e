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
        if let unit = activeSystemdUnit(listeningOn: path) {
            throw .unreachable("\(unit) is active but nothing answers at \(path); see `systemctl status todod`")
        }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let directoryPath = directory.isEmpty ? "." : directory
        if mkdir(directoryPath, 0o700) != 0 && errno != EEXIST {
            throw .unreachable("cannot create \(directoryPath) to start todod: \(String(cString: strerror(errno)))")
        }
        try checkOwnership(of: directoryPath)
        // O_NOFOLLOW: a link planted here must not redirect what this user opens.
        let lock = open(directoryPath + "/autostart.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw .unreachable("cannot start todod: \(directoryPath)/autostart.lock: \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        var waited = 0
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waited < startTimeoutMilliseconds else {
                throw .unreachable("another todo has been starting todod at \(path) for too long (\(directoryPath)/autostart.lock)")
            }
            usleep(10_000)
            waited += 10
        }
        if SocketPath.isAnswering(path) { return nil }
        return try start(at: path, log: directoryPath + "/todod.log")
    }

    /// The socket's directory must be this user's and closed to others (as the daemon checks
    /// too): in a shared place such as /tmp, another user could otherwise prepare it.
    private static func checkOwnership(of directory: String) throws(CLIError) {
        var status = stat()
        guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw .unreachable("cannot start todod: \(directory) is not a directory")
        }
        guard status.st_uid == getuid(), status.st_mode & 0o022 == 0 else {
            throw .unreachable("not starting todod: \(directory) belongs to another user or others can write to it")
        }
    }

    private static func start(at path: String, log: String) throws(CLIError) -> pid_t {
        let executable = daemonExecutable()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0o600)
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
        guard result == 0 else {
            throw .unreachable("cannot start \(executable) (looked beside todo and on PATH): \(String(cString: strerror(result)))")
        }
        var waited = 0
        while !SocketPath.isAnswering(path) {
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

    /// The active todod socket unit, of this user or of the system, that listens on `path`,
    /// if systemd is the init system. A unit listening elsewhere does not stop an autostart.
    private static func activeSystemdUnit(listeningOn path: String) -> String? {
        guard access("/run/systemd/system", F_OK) == 0 else { return nil }
        for scope in [["--user"], []] {
            let listen = output(of: "systemctl", scope + ["show", "todod.socket", "--property=ActiveState,Listen"])
            let active = listen.contains("ActiveState=active")
            if active && listen.split(separator: "\n").contains(where: { $0.hasPrefix("Listen=\(path) ") }) {
                return scope.isEmpty ? "todod.socket" : "todod.socket (--user)"
            }
        }
        return nil
    }

    /// What a command prints on standard output ("" if it cannot run).
    private static func output(of command: String, _ arguments: [String]) -> String {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return "" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([command] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, command, &actions, nil, argv, environ) == 0
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned else { return "" }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipeEnds[0], &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return String(decoding: bytes, as: UTF8.self)
    }
}
