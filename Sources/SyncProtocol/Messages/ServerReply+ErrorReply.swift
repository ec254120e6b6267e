extension ServerReply {
    /// The fields of `error`: what the daemon writes (`ServerMessage.error`) and what a client
    /// reads, from these `CodingKeys`.
    public struct ErrorReply: Sendable, Equatable, Codable {
        /// The request this answers; `nil` (written as `null`) for an error not tied to a request.
        public var id: Int64?
        /// The protocol's error code (see `ErrorCode`; a newer daemon may send others).
        public var code: String
        /// One sentence for people.
        public var message: String
        /// The protocol versions the daemon speaks (`unsupported_protocol`).
        public var supported: [Int]?

        private enum CodingKeys: String, CodingKey { case id, code, message, supported }

        /// An error reply with every field given.
        public init(id: Int64?, code: String, message: String, supported: [Int]? = nil) {
            self.id = id
            self.code = code
            self.message = message
            self.supported = supported
        }

        /// The reply to `error`, listing `supported` versions for `unsupported_protocol`.
        public init(_ error: ProtocolError, supported: [Int]? = nil) {
            self.init(id: error.requestID, code: error.code.rawValue, message: error.message, supported: supported)
        }

        /// Writes `id` even when it is `nil`: an error not tied to a request says so.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(code, forKey: .code)
            try container.encode(message, forKey: .message)
            try container.encodeIfPresent(supported, forKey: .supported)
        }
    }
}
