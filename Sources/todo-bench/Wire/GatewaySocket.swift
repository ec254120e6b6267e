import Glibc

/// One WebSocket connection to `todo web`'s gateway on 127.0.0.1, as a page holds it: signed
/// in with the session cookie, subscribed with the page protocol (docs/WEB.md), read for the
/// versions of the updates it is sent. Blocking I/O with a receive timeout, so a gateway that
/// stops answering fails the figure instead of hanging it.
///
/// Reading is for one thread at a time; writing may happen on another.
final class GatewaySocket: @unchecked Sendable {
    // @unchecked: the descriptor is immutable, and `pending` is touched only by the reader.
    /// The socket's file descriptor, open until this object goes.
    let descriptor: Int32
    /// Bytes read but not yet a whole frame.
    private var pending: [UInt8] = []

    /// Exchanges the one-time `token` of the gateway on `port` for its session cookie
    /// (`name=value`, as a browser sends it back).
    static func signIn(port: Int, token: String) throws(BenchError) -> String {
        let descriptor = try connectTCP(port: port)
        defer { close(descriptor) }
        try write(descriptor, Array("GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
        let head = try readHead(descriptor, port: port).head.lowercased()
        guard head.hasPrefix("http/1.1 303"),
            let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("set-cookie:") })
        else {
            throw .unexpectedReply(from: "the gateway on port \(port)", reply: String(head.prefix(200)))
        }
        let value = line.dropFirst("set-cookie:".count).drop { $0 == " " }
        return String(value.prefix { $0 != ";" })
    }

    /// Connects to the gateway on `port` and upgrades to a WebSocket with `cookie`.
    init(port: Int, cookie: String) throws(BenchError) {
        descriptor = try Self.connectTCP(port: port)
        let request =
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dG9kby1iZW5jaCBnYXRld2F5\r\nSec-WebSocket-Version: 13\r\n"
            + "Origin: http://127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n\r\n"
        do throws(BenchError) {
            try Self.write(descriptor, Array(request.utf8))
            let (head, rest) = try Self.readHead(descriptor, port: port)
            guard head.hasPrefix("HTTP/1.1 101") else {
                throw .unexpectedReply(from: "the gateway's upgrade", reply: String(head.prefix(200)))
            }
            pending = rest
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text` as one masked text frame (a client's frames are masked).
    func send(text: String) throws(BenchError) {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try Self.write(descriptor, frame)
    }

    /// Reads once (the socket is readable) and returns the versions of the `update` messages
    /// that read completed; `nil` when the gateway closed the connection.
    func updateVersionsFromOneRead() throws(BenchError) -> [UInt64]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            if count == 0 { return nil }
            throw .socket(path: "gateway", operation: "read", reason: String(cString: strerror(errno)))
        }
        pending += buffer[..<count]
        var versions: [UInt64] = []
        while let (opcode, payload) = nextFrame() {
            if opcode == 0x8 { return nil }
            if opcode == 0x1, let version = Self.updateVersion(payload) { versions.append(version) }
        }
        return versions
    }

    /// Removes and returns the next whole frame buffered (a server's frames are not masked).
    private func nextFrame() -> (opcode: UInt8, payload: ArraySlice<UInt8>)? {
        guard pending.count >= 2 else { return nil }
        var length = Int(pending[1] & 0x7F)
        var start = 2
        if length == 126 || length == 127 {
            let size = length == 126 ? 2 : 8
            guard pending.count >= 2 + size else { return nil }
            length = pending[2..<(2 + size)].reduce(0) { $0 << 8 | Int($1) }
            start += size
        }
        guard pending.count >= start + length else { return nil }
        let frame = (pending[0] & 0x0F, pending[start..<(start + length)])
        pending.removeFirst(start + length)
        return (frame.0, ArraySlice(Array(frame.1)))
    }

    /// The version of an `update` message (`{"type":"update","key":…,"version":N,…}`).
    private static func updateVersion(_ message: ArraySlice<UInt8>) -> UInt64? {
        let text = String(decoding: message.prefix(200), as: UTF8.self)
        guard text.hasPrefix("{\"type\":\"update\""), let range = text.range(of: "\"version\":") else { return nil }
        return UInt64(text[range.upperBound...].prefix { $0.isNumber })
    }

    private static func connectTCP(port: Int) throws(BenchError) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw .socket(path: "127.0.0.1:\(port)", operation: "socket", reason: String(cString: strerror(errno)))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .socket(path: "127.0.0.1:\(port)", operation: "connect", reason: reason)
        }
        var limit = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    private static func write(_ descriptor: Int32, _ bytes: [UInt8]) throws(BenchError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .socket(path: "gateway", operation: "write", reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// Reads an HTTP response's head; returns it and the bytes read after it.
    private static func readHead(_ descriptor: Int32, port: Int) throws(BenchError) -> (head: String, rest: [UInt8]) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let index = received.indices.dropLast(3).first(where: { Array(received[$0..<($0 + 4)]) == end }) {
                return (String(decoding: received[..<index], as: UTF8.self), Array(received[(index + 4)...]))
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                throw .unexpectedReply(from: "the gateway on port \(port)", reply: "the connection ended in the head")
            }
            received += buffer[..<count]
        }
    }
}
