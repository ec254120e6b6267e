import Glibc

/// The service manager's notify protocol, written out (it is small, and it keeps libsystemd
/// out of the build): each state change is one datagram of `KEY=VALUE` lines sent to the Unix
/// socket named by `$NOTIFY_SOCKET` — a path, or an abstract address when it starts with `@`.
///
/// The daemon sends `READY=1` once recovery is done and it listens, `STATUS=…` lines as its
/// load changes, `WATCHDOG=1` every half `$WATCHDOG_USEC` from a loop timer (so a stuck loop
/// stops the pings and systemd restarts it), and `STOPPING=1` when it begins to shut down.
/// Without `$NOTIFY_SOCKET` (not under systemd) there is no notifier and nothing is sent.
final class SystemdNotifier {
    private let descriptor: Int32
    private var address: sockaddr_un
    private let addressLength: socklen_t
    private var lastStatus = ""

    /// A notifier for `$NOTIFY_SOCKET`, or `nil` when it is not set or not usable.
    init?() {
        guard let raw = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), raw.count >= 2, raw.utf8.count < 108,
            raw.hasPrefix("/") || raw.hasPrefix("@")
        else { return nil }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(raw.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        self.descriptor = descriptor
        self.address = address
        // An abstract name is exactly as long as given (no terminating NUL counts).
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == 0 ? 0 : 1))
    }

    deinit {
        close(descriptor)
    }

    /// The watchdog interval systemd asked for, halved, in milliseconds; `nil` when none.
    static func watchdogInterval() -> UInt64? {
        if let pid = getenv("WATCHDOG_PID").map({ String(cString: $0) }), Int32(pid) != getpid() { return nil }
        guard let usec = getenv("WATCHDOG_USEC").flatMap({ UInt64(String(cString: $0)) }), usec > 0 else { return nil }
        return max(usec / 2000, 1)
    }

    /// Sends one notification (`READY=1`, `STOPPING=1`, …).
    func send(_ message: String) {
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), sockaddr, addressLength)
            }
        }
    }

    /// Sends `STATUS=status` unless it is what was sent last.
    func status(_ status: String) {
        guard status != lastStatus else { return }
        lastStatus = status
        send("STATUS=\(status)")
    }
}
