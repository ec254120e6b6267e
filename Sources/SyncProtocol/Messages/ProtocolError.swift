/// A protocol-level error: what goes into an `error` message.
public struct ProtocolError: Error, Equatable, Sendable {
    /// The machine-readable code.
    public var code: ErrorCode
    /// One human-readable sentence.
    public var message: String
    /// The id of the request this answers, or `nil` when it is not tied to one.
    public var requestID: Int64?

    /// An error with its code, sentence and request id.
    public init(_ code: ErrorCode, _ message: String, requestID: Int64? = nil) {
        self.code = code
        self.message = message
        self.requestID = requestID
    }
}
