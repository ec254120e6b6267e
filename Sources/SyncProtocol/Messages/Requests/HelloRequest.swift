/// `hello {id, protocol, client, app?, clientId?, features?}`: must come first. `app` names the
/// app the client belongs to (`AppIdentity.name`); a daemon serving another refuses it.
/// `clientID` is passed on as sent; the server checks it against `ClientID`'s rules, so that a
/// bad one gets its own error rather than the one for an undecodable hello. `features` names
/// optional behaviours the client can handle (see `WireProtocol.features`).
public struct HelloRequest: RequestMessage {
    public static let type = "hello"
    public var id: Int64
    /// The protocol version the client speaks (wire name `protocol`).
    public var protocolVersion: Int
    /// The client's free-form `name/version`, for the daemon's logs (`""` when absent).
    public var client: String
    /// The client's app, if it names one.
    public var app: String?
    /// The client id asking for exactly-once dispatch (wire name `clientId`).
    public var clientID: String?
    /// The optional behaviours asked for (absent on the wire when empty).
    public var features: [String]

    /// A hello for this build's protocol version, unless another is given.
    public init(
        id: Int64, protocolVersion: Int = WireProtocol.version, client: String, app: String? = nil,
        clientID: String? = nil, features: [String] = []
    ) {
        self.id = id
        self.protocolVersion = protocolVersion
        self.client = client
        self.app = app
        self.clientID = clientID
        self.features = features
    }

    public init(id: Int64) { self.init(id: id, protocolVersion: 0, client: "") }

    public mutating func visitFields(_ visitor: inout some RequestFieldVisitor) {
        visitor.optional("app", &app)
        visitor.defaulted("client", &client)
        visitor.optional("clientId", &clientID)
        visitor.defaulted("features", &features)
        visitor.required("protocol", &protocolVersion)
    }

    /// The payload to send.
    public func encoded() -> [UInt8] { encoded(attaching: []) }
}
