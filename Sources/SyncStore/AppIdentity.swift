/// Who an app is on a machine: the one value from which its daemon, its clients and its
/// systemd units take every name, so that two apps on one machine never share a socket, a data
/// directory, a lock or an environment variable.
///
/// Everything is derived from `name` (a short lowercase word such as `todo`) and `daemonName`
/// (`todod` by default): the socket `$XDG_RUNTIME_DIR/todo/todod.sock`, the data directory
/// `~/.local/state/todo`, the variables `TODO_SOCKET`, `TODO_NO_AUTOSTART` and `TODOD_POSTGRES`,
/// the units `todod.socket` and `todod.service`.
public struct AppIdentity: Sendable, Equatable {
    /// The app's name: its client command and the name of its runtime and state directories.
    public let name: String
    /// The app's release, shown by `--version` and in `welcome`.
    public let version: String
    /// The daemon's executable name, log label, socket file and unit names.
    public let daemonName: String

    /// An identity named `name` (lowercase letters, digits and `-`, starting with a letter),
    /// whose daemon is `daemonName` (default: `name` + `d`). A name outside those letters is a
    /// programming error and traps, since every path and variable is built from it.
    public init(name: String, version: String, daemonName: String? = nil) {
        let daemonName = daemonName ?? name + "d"
        precondition(
            Self.isValidName(name), "an app's name is lowercase letters, digits and -, starting with a letter: \(name)")
        precondition(
            Self.isValidName(daemonName),
            "a daemon's name is lowercase letters, digits and -, starting with a letter: \(daemonName)")
        self.name = name
        self.version = version
        self.daemonName = daemonName
    }

    /// Whether `name` can name an app or a daemon.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    /// `todo/0.1.0`: how a client of this app introduces itself.
    public var clientName: String { "\(name)/\(version)" }
    /// `todod/0.1.0`: how the daemon introduces itself in `welcome`.
    public var serverName: String { "\(daemonName)/\(version)" }
    /// `todod.sock`.
    public var socketFileName: String { daemonName + ".sock" }
    /// `todod.lock`: the lock file in the data directory.
    public var lockFileName: String { daemonName + ".lock" }
    /// `todod.socket`.
    public var socketUnitName: String { daemonName + ".socket" }
    /// `todod.service`.
    public var serviceUnitName: String { daemonName + ".service" }
    /// `TODO_SOCKET`: the socket path every client and the daemon use when set.
    public var socketVariable: String { Self.variablePrefix(name) + "_SOCKET" }
    /// `TODO_NO_AUTOSTART`: set to 1, clients never start the daemon.
    public var noAutostartVariable: String { Self.variablePrefix(name) + "_NO_AUTOSTART" }
    /// `TODOD_POSTGRES`: the daemon's shared log when `--postgres` is not given.
    public var postgresVariable: String { Self.variablePrefix(daemonName) + "_POSTGRES" }

    /// Where the daemon listens and clients connect: `explicit` (a `--socket` flag), else
    /// `$TODO_SOCKET`, else `$XDG_RUNTIME_DIR/todo/todod.sock`, else `/tmp/todo-UID/todod.sock`.
    public func socketPath(explicit: String?, environment: [String: String], userID: UInt32) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment[socketVariable], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return "\(runtime)/\(name)/\(socketFileName)"
        }
        return "/tmp/\(name)-\(userID)/\(socketFileName)"
    }

    /// Where the daemon keeps its journal: `explicit` (a `--data-dir` flag), else
    /// `$STATE_DIRECTORY` (set by systemd; the first of a colon-separated list), else
    /// `$XDG_STATE_HOME/todo`, else `$HOME/.local/state/todo`; nil when none is set.
    public func dataDirectory(explicit: String?, environment: [String: String]) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let state = environment["STATE_DIRECTORY"], let first = state.split(separator: ":").first {
            return String(first)
        }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return "\(xdg)/\(name)" }
        if let home = environment["HOME"], !home.isEmpty { return "\(home)/.local/state/\(name)" }
        return nil
    }

    /// The variables `socketPath` and `dataDirectory` read, and the daemon's own.
    public var environmentVariables: [String] {
        [socketVariable, "XDG_RUNTIME_DIR", "STATE_DIRECTORY", "XDG_STATE_HOME", "HOME", postgresVariable]
    }

    private static func variablePrefix(_ name: String) -> String {
        String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }
}
