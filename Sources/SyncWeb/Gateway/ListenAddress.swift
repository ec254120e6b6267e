/// Where a gateway listens: an IPv4 address and a port (0: any free port).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The IPv4 address in dotted form.
    public let host: String
    /// The port; 0 lets the system choose.
    public let port: Int

    /// The default, `127.0.0.1:8765`.
    public static let standard = ListenAddress(host: "127.0.0.1", port: 8765)

    /// `host:port` as given.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `ADDR:PORT` (`:PORT` alone means 127.0.0.1); `nil` if it is not an IPv4 address
    /// and a port from 0 to 65535.
    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        let host = text[..<colon].isEmpty ? "127.0.0.1" : String(text[..<colon])
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return nil }
        self.init(host: host, port: port)
    }

    /// Whether only this machine can reach the address (127.0.0.0/8).
    public var isLoopback: Bool { host.hasPrefix("127.") }

    /// `host:port`.
    public var description: String { "\(host):\(port)" }
}
