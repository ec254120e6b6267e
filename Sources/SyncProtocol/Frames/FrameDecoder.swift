/// Splits a byte stream into frames. A pure state machine: no I/O, no libuv.
///
/// ```
/// +----------------+------------------------------+
/// | length L (u32, | payload: L bytes of UTF-8    |
/// | big-endian)    | JSON holding one object      |
/// +----------------+------------------------------+
///   4 bytes          1 <= L <= maximumLength
/// ```
///
/// Feed it bytes as they arrive with `append`, then call `next()` until it returns `nil`. The
/// length is checked as soon as the 4 header bytes are in, before any room is made for the body,
/// so a hostile length costs nothing. After an error the stream cannot be resynchronised: the
/// decoder keeps throwing the same error and the connection must be closed.
public struct FrameDecoder: Sendable {
    /// Where the decoder is in the current frame.
    public enum ReadState: Equatable, Sendable {
        /// Fewer than 4 bytes of the next frame have arrived.
        case waitingForHeader
        /// The header announced `length` payload bytes; not all of them have arrived.
        case waitingForBody(length: Int)
        /// The stream broke the framing rules; see the error `next()` throws.
        case failed(FrameError)
    }

    /// The largest payload accepted, in bytes.
    public let maximumLength: Int
    /// Where the decoder is in the current frame.
    public private(set) var readState: ReadState = .waitingForHeader

    private var buffer: [UInt8] = []
    private var readIndex = 0

    /// A decoder that accepts payloads of at most `maximumLength` bytes.
    public init(maximumLength: Int = WireProtocol.defaultMaximumFrameLength) {
        precondition(maximumLength >= 1 && maximumLength <= Int(UInt32.max))
        self.maximumLength = maximumLength
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete payload, or `nil` if more bytes are needed.
    public mutating func next() throws(FrameError) -> [UInt8]? {
        while true {
            switch readState {
            case .failed(let error):
                throw error
            case .waitingForHeader:
                guard bufferedByteCount >= WireProtocol.headerLength else { return nil }
                let length = buffer[readIndex..<readIndex + 4].reduce(0) { $0 << 8 | Int($1) }
                readIndex += 4
                if length == 0 {
                    readState = .failed(.emptyFrame)
                } else if length > maximumLength {
                    readState = .failed(.frameTooLarge(length: length, maximum: maximumLength))
                } else {
                    readState = .waitingForBody(length: length)
                }
            case .waitingForBody(let length):
                guard bufferedByteCount >= length else { return nil }
                let payload = Array(buffer[readIndex..<readIndex + length])
                readIndex += length
                readState = .waitingForHeader
                return payload
            }
        }
    }

    /// Drops consumed bytes once they are the larger part of the buffer, so the buffer stays
    /// bounded by one frame plus one read without moving bytes on every call.
    private mutating func compactIfWorthIt() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            readIndex = 0
        } else if readIndex > 4096 && readIndex * 2 > buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}

/// Why a byte stream is not a valid sequence of frames.
public enum FrameError: Error, Equatable, Sendable {
    /// A header announced a payload of 0 bytes.
    case emptyFrame
    /// A header announced a payload larger than the maximum.
    case frameTooLarge(length: Int, maximum: Int)
}

/// Builds frames: the length prefix followed by the payload.
public enum FrameEncoder {
    /// The frame carrying `payload`.
    public static func frame(_ payload: some Collection<UInt8>) -> [UInt8] {
        precondition(payload.count <= Int(UInt32.max), "payload does not fit a frame")
        var frame = [UInt8]()
        frame.reserveCapacity(WireProtocol.headerLength + payload.count)
        appendFrame(payload, to: &frame)
        return frame
    }

    /// Appends the frame carrying `payload` to `bytes`.
    public static func appendFrame(_ payload: some Collection<UInt8>, to bytes: inout [UInt8]) {
        appendHeader(length: payload.count, to: &bytes)
        bytes.append(contentsOf: payload)
    }

    /// Appends the length prefix of a frame whose payload has `length` bytes.
    public static func appendHeader(length: Int, to bytes: inout [UInt8]) {
        precondition(length <= Int(UInt32.max), "payload does not fit a frame")
        let length = UInt32(length)
        bytes.append(UInt8(truncatingIfNeeded: length >> 24))
        bytes.append(UInt8(truncatingIfNeeded: length >> 16))
        bytes.append(UInt8(truncatingIfNeeded: length >> 8))
        bytes.append(UInt8(truncatingIfNeeded: length))
    }
}
