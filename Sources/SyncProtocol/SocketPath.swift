/// Where the daemon listens, resolved the same way by the daemon and every client.
public enum SocketPath {
    /// The longest path a Unix socket address holds on Linux (`sun_path` is 108 bytes with NUL).
    public static let maximumLength = 107

    /// `explicit` (a `--socket` flag), else `$TODO_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/todo/todod.sock`, else `/tmp/todo-UID/todod.sock`.
    public static func resolve(explicit: String?, environment: [String: String], userID: UInt32) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["TODO_SOCKET"], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/todo/todod.sock"
        }
        return "/tmp/todo-\(userID)/todod.sock"
    }
}
