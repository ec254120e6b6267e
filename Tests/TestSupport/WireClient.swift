import Foundation
import Glibc
import SyncProtocol

/// A raw protocol client for tests: frames JSON objects by hand and reads frames back, so tests
/// can send anything, including what no well-behaved client would.
///
/// Reads wait at most `timeout` seconds (`SO_RCVTIMEO`) so a missing reply fails the test
/// instead of hanging it.
public final class WireClient: @unchecked Sendable {
    /// A decoded frame from the server.
    public typealias Message = [String: Any]

    /// The socket's file descriptor.
    public let descriptor: Int32
    private var buffer: [UInt8] = []
    private var nextID = 100

    /// Connects to `path`.
    public init(path: String, timeout: Double = 30) throws {
        // Kept local until connected: a class whose init throws after its properties are set
        // still runs deinit, which would close the descriptor a second time. Close-on-exec: a
        // child process another test starts meanwhile would otherwise inherit the socket and
        // keep the connection open after this client closes it.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let connected = SocketPath.withAddress(of: path) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            close(descriptor)
            throw TestFailure("cannot connect to \(path): \(String(cString: strerror(errno)))")
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// A fresh request id.
    public func makeID() -> Int {
        nextID += 1
        return nextID
    }

    /// Sends `hello` (with `clientId` if `clientID` is given, `features` if any) and checks
    /// the `welcome`.
    @discardableResult
    public func hello(
        name: String = "test/1", protocolVersion: Int = 1, clientID: String? = nil, features: [String] = []
    ) throws -> Message {
        let id = makeID()
        var hello: [String: Any] = ["type": "hello", "id": id, "protocol": protocolVersion, "client": name]
        if let clientID { hello["clientId"] = clientID }
        if !features.isEmpty { hello["features"] = features }
        try send(hello)
        let reply = try receive()
        guard reply["type"] as? String == "welcome", reply["id"] as? Int == id else {
            throw TestFailure("expected welcome, got \(reply)")
        }
        return reply
    }

    /// Sends `object` as one frame.
    public func send(_ object: [String: Any]) throws {
        try sendPayload(JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// Sends `payload` as one frame.
    public func sendPayload(_ payload: Data) throws {
        try sendRaw(Self.frame(payload))
    }

    /// Sends `objects` as consecutive frames in one write, so that the daemon reads them together.
    public func sendTogether(_ objects: [[String: Any]]) throws {
        try sendRaw(
            objects.reduce(into: Data()) {
                $0 += Self.frame(try JSONSerialization.data(withJSONObject: $1, options: [.sortedKeys]))
            })
    }

    private static func frame(_ payload: Data) -> Data {
        var length = UInt32(payload.count).bigEndian
        return Data(bytes: &length, count: 4) + payload
    }

    /// Sends bytes as they are.
    public func sendRaw(_ bytes: Data) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw TestFailure("send failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Dispatches an action (numbered with `sequence`, if given) and returns the request id used.
    @discardableResult
    public func dispatch(_ name: String, _ payload: [String: Any], sequence: Int? = nil) throws -> Int {
        let id = makeID()
        try send(Self.dispatchMessage(id: id, name, payload, sequence: sequence))
        return id
    }

    /// The `dispatch` message for request `id`.
    public static func dispatchMessage(id: Int, _ name: String, _ payload: [String: Any], sequence: Int? = nil)
        -> [String: Any]
    {
        var message: [String: Any] = ["type": "dispatch", "id": id, "action": ["name": name, "payload": payload]]
        if let sequence { message["sequence"] = sequence }
        return message
    }

    /// Subscribes and returns the request id used.
    @discardableResult
    public func subscribe(_ viewModel: String, _ params: [String: Any] = [:]) throws -> Int {
        let id = makeID()
        try send(["type": "subscribe", "id": id, "viewModel": viewModel, "params": params])
        return id
    }

    /// Sends `ping` and returns the request id used.
    @discardableResult
    public func ping() throws -> Int {
        let id = makeID()
        try send(["type": "ping", "id": id])
        return id
    }

    /// Reads the next frame and decodes its JSON object.
    public func receive() throws -> Message {
        let payload = try receivePayload()
        guard let object = try JSONSerialization.jsonObject(with: payload) as? Message else {
            throw TestFailure("the server sent a frame that is not a JSON object")
        }
        return object
    }

    /// Reads the next frame's payload bytes.
    public func receivePayload() throws -> Data {
        try fill(4)
        let length = buffer[0..<4].reduce(0) { $0 << 8 | Int($1) }
        try fill(4 + length)
        let payload = Data(buffer[4..<4 + length])
        buffer.removeFirst(4 + length)
        return payload
    }

    /// Reads messages until one has `type` (and `id`, if given); returns it and those skipped.
    public func receive(until type: String, id: Int? = nil) throws -> (message: Message, skipped: [Message]) {
        var skipped: [Message] = []
        while true {
            let message = try receive()
            if message["type"] as? String == type && (id == nil || message["id"] as? Int == id) {
                return (message, skipped)
            }
            skipped.append(message)
        }
    }

    /// Whether the server closed the connection (reads end of stream, after any queued frames
    /// are consumed with `receive`).
    public func readsEndOfStream() throws -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        if count == 0 { return true }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            throw TestFailure("the server neither closed nor sent anything")
        }
        return count < 0
    }

    private func fill(_ count: Int) throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while buffer.count < count {
            let read = recv(descriptor, &chunk, chunk.count, 0)
            if read == 0 { throw TestFailure("the server closed the connection") }
            if read < 0 { throw TestFailure("receive failed: \(String(cString: strerror(errno)))") }
            buffer.append(contentsOf: chunk[0..<read])
        }
    }
}
