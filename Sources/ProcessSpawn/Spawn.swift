import CSpawn
import Glibc

/// Starting child processes the way the test suite and the benchmark need them: standard input
/// from `/dev/null`, standard output and error to files, no other descriptor, and an empty
/// signal mask with default dispositions whatever the parent blocked or ignored, so that
/// SIGTERM and SIGINT reach it.
public enum Spawn {
    /// Why a child could not be started: `strerror` of `posix_spawn`'s result.
    public struct Failure: Error, CustomStringConvertible {
        /// The program that could not be started.
        public let executable: String
        /// The system's reason.
        public let reason: String

        /// "cannot start EXECUTABLE: REASON".
        public var description: String { "cannot start \(executable): \(reason)" }
    }

    /// Starts `executable` with `arguments` (`argv[0]` is `executable`) in this process's
    /// environment with `environment` added (its values win), writing its output to
    /// `stdoutPath` and `stderrPath` (created 0600, or `/dev/null`). Descriptors 0, 1 and 2 are
    /// all it gets: nothing else this process has open reaches it (a socket another thread
    /// opened without close-on-exec, say). Returns the child's process id.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], stdoutPath: String,
        stderrPath: String
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = Self.currentEnvironment(adding: environment).map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
            for variable in envp { free(variable) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure(executable: executable, reason: String(cString: strerror(result))) }
        return pid
    }

    /// This process's environment as `KEY=VALUE` entries, with `added` set over it.
    private static func currentEnvironment(adding added: [String: String]) -> [String] {
        var entries: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let key =
                text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
                ?? text
            if added[key] == nil { entries.append(text) }
            index += 1
        }
        return entries + added.map { "\($0.key)=\($0.value)" }
    }
}
