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

#if canImport(Glibc)
import Glibc

extension SocketPath {
    /// Calls `body` with `path` as a Unix socket address (`sockaddr_un`) and its length, for
    /// `connect` and `bind`. `path` must be at most `maximumLength` bytes; longer paths are cut.
    public static func withAddress<Result>(of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8.prefix(maximumLength)) }
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Whether something accepts connections on the Unix socket at `path`.
    public static func isAnswering(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return withAddress(of: path) { connect(descriptor, $0, $1) } == 0
    }
}
#endif
