import Glibc

/// Asks systemd whether one of its socket units is meant to serve a path, so that a client
/// does not start a second daemon beside a unit that is merely failing.
enum SystemdSocketUnit {
    /// The active socket unit `unit`, of this user or of the system, that listens on `path`,
    /// if systemd is the init system. A unit listening elsewhere does not count.
    static func active(named unit: String, listeningOn path: String) -> String? {
        guard access("/run/systemd/system", F_OK) == 0 else { return nil }
        for scope in [["--user"], []] {
            let listen = output(of: "systemctl", scope + ["show", unit, "--property=ActiveState,Listen"])
            let active = listen.contains("ActiveState=active")
            if active && listen.split(separator: "\n").contains(where: { $0.hasPrefix("Listen=\(path) ") }) {
                return scope.isEmpty ? unit : "\(unit) (--user)"
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
        defer { for argument in argv { free(argument) } }
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
