extension ServerReply {
    /// The fields of `welcome`, the answer to `hello`: what the daemon writes
    /// (`ServerMessage.welcome`) and what a client reads, from these `CodingKeys`.
    public struct Welcome: Sendable, Equatable, Codable {
        /// The hello's id, echoed.
        public var id: Int64
        /// The protocol version the daemon speaks (wire name `protocol`).
        public var protocolVersion: Int
        /// The daemon's `name/version`.
        public var server: String
        /// The app the daemon serves (absent from older daemons).
        public var app: String?
        /// The state version now.
        public var version: UInt64
        /// The hello's client id, echoed (wire name `clientId`).
        public var clientID: String?
        /// The highest sequence of that client id applied durably, 0 for none; present when the
        /// hello gave a client id.
        public var lastSequence: UInt64?
        /// The optional features of the hello that are granted (absent when it asked for none).
        public var features: [String]?
        /// Which log the daemon uses and how it is doing.
        public var log: LogStatus?

        private enum CodingKeys: String, CodingKey {
            case id, server, app, version, lastSequence, features, log
            case protocolVersion = "protocol"
            case clientID = "clientId"
        }

        /// A welcome with every field given.
        public init(
            id: Int64, protocolVersion: Int, server: String, app: String? = nil, version: UInt64,
            clientID: String? = nil, lastSequence: UInt64? = nil, features: [String]? = nil, log: LogStatus? = nil
        ) {
            self.id = id
            self.protocolVersion = protocolVersion
            self.server = server
            self.app = app
            self.version = version
            self.clientID = clientID
            self.lastSequence = lastSequence
            self.features = features
            self.log = log
        }
    }
}
