/// One RESP (Redis protocol) value as a reply carries it.
enum RESPValue: Equatable {
    /// `+OK`
    case simple(String)
    /// `-ERR ...`
    case error(String)
    /// `:42`
    case integer(Int)
    /// `$5 hello`, or `$-1` (nil).
    case bulk([UInt8]?)
    /// `*2 ...`, or `*-1` (nil).
    case array([RESPValue]?)
}

/// A minimal RESP client over a Unix socket, enough for the Redis side of the figures: send
/// commands, read replies, read pub/sub pushes. Written here rather than taken from a library
/// so that the Redis clients cost what the todod clients cost: a socket, a thread, a parser.
///
/// Reading is for one thread at a time; writing may happen on another.
final class RESPSocket: @unchecked Sendable {
    // @unchecked: `pending` and `readIndex` are only used by the one reading thread.
    /// The transport.
    let stream: UnixStream
    private var pending: [UInt8] = []
    private var readIndex = 0
    private let buffer: UnsafeMutableRawBufferPointer

    /// Connects to Redis at `path`.
    init(path: String, receiveTimeout: Double = 120) throws(BenchError) {
        stream = try UnixStream(path: path, receiveTimeout: receiveTimeout)
        // Allocated once connected: when an initializer throws, deinit does not run.
        buffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// The bytes of a command: an array of bulk strings.
    static func command(_ arguments: [[UInt8]]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            bytes.append(contentsOf: "$\(argument.count)\r\n".utf8)
            bytes.append(contentsOf: argument)
            bytes.append(contentsOf: [13, 10])
        }
        return bytes
    }

    /// Sends the command `arguments`.
    func send(_ arguments: [String]) throws(BenchError) {
        try stream.write(Self.command(arguments.map { Array($0.utf8) }))
    }

    /// Sends bytes already in RESP form.
    func send(raw bytes: [UInt8]) throws(BenchError) {
        try stream.write(bytes)
    }

    /// Sends `arguments` and returns the reply; an error reply is thrown.
    func call(_ arguments: [String]) throws(BenchError) -> RESPValue {
        try send(arguments)
        let reply = try nextValue()
        if case .error(let message) = reply {
            throw .unexpectedReply(from: stream.path, reply: "\(arguments.first ?? ""): \(message)")
        }
        return reply
    }

    /// The next value, blocking until it is complete.
    func nextValue() throws(BenchError) -> RESPValue {
        while true {
            if let (value, end) = try parse(at: readIndex) {
                readIndex = end
                if readIndex == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    readIndex = 0
                }
                return value
            }
            if readIndex > 0 {
                pending.removeSubrange(0..<readIndex)
                readIndex = 0
            }
            let count = try stream.read(into: buffer)
            if count == 0 { throw .unexpectedReply(from: stream.path, reply: "end of stream") }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The values completed by one read (blocking until some bytes arrive); `nil` at the end
    /// of the stream. For a caller that polls several sockets and must not block on one.
    func valuesFromOneRead() throws(BenchError) -> [RESPValue]? {
        let count = try stream.read(into: buffer)
        if count == 0 { return nil }
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        var values: [RESPValue] = []
        while let (value, end) = try parse(at: readIndex) {
            values.append(value)
            readIndex = end
        }
        pending.removeSubrange(0..<readIndex)
        readIndex = 0
        return values
    }

    /// Parses one value starting at `start`; `nil` when more bytes are needed.
    private func parse(at start: Int) throws(BenchError) -> (RESPValue, Int)? {
        guard start < pending.count, let (line, next) = self.line(at: start + 1) else { return nil }
        switch pending[start] {
        case UInt8(ascii: "+"): return (.simple(line), next)
        case UInt8(ascii: "-"): return (.error(line), next)
        case UInt8(ascii: ":"): return (.integer(try number(line)), next)
        case UInt8(ascii: "$"):
            let length = try number(line)
            if length < 0 { return (.bulk(nil), next) }
            guard next + length + 2 <= pending.count else { return nil }
            return (.bulk(Array(pending[next..<next + length])), next + length + 2)
        case UInt8(ascii: "*"):
            let count = try number(line)
            if count < 0 { return (.array(nil), next) }
            var elements: [RESPValue] = []
            var position = next
            for _ in 0..<count {
                guard let (element, after) = try parse(at: position) else { return nil }
                elements.append(element)
                position = after
            }
            return (.array(elements), position)
        default:
            throw .unexpectedReply(from: stream.path, reply: "not RESP: byte \(pending[start])")
        }
    }

    /// The text up to the next CRLF from `start`, and the index after the CRLF.
    private func line(at start: Int) -> (String, Int)? {
        var index = start
        while index + 1 < pending.count {
            if pending[index] == 13 && pending[index + 1] == 10 {
                return (String(decoding: pending[start..<index], as: UTF8.self), index + 2)
            }
            index += 1
        }
        return nil
    }

    private func number(_ text: String) throws(BenchError) -> Int {
        guard let value = Int(text) else {
            throw .unexpectedReply(from: stream.path, reply: "not a RESP length: \(text)")
        }
        return value
    }
}
