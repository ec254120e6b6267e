/// Unix socket addresses, for the daemon and every client. (Which path an app uses is its
/// `AppIdentity`'s to say.)
public enum SocketPath {
    /// The longest path a Unix socket address holds on Linux (`sun_path` is 108 bytes with NUL).
    public static let maximumLength = 107
}

#if canImport(Glibc)
    import Glibc

    extension SocketPath {
        /// Calls `body` with `path` as a Unix socket address (`sockaddr_un`) and its length, for
        /// `connect` and `bind`. `path` must be at most `maximumLength` bytes; longer paths are cut.
        public static func withAddress<Result>(
            of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
        ) rethrows -> Result {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8.prefix(maximumLength)) }
            return try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
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
