/// Builds the JSON payloads of client requests, for clients written in Swift.
public enum RequestEncoder {
    /// `hello {id, protocol, client, app?, clientId?, features?}` for this build's protocol
    /// version. `app` names the client's app, so that another app's daemon refuses it.
    /// A `clientID` asks for exactly-once dispatch: numbered dispatches from it apply once.
    /// `features` asks for optional behaviours such as `patch` updates.
    public static func hello(
        id: Int64, client: String, app: String? = nil, clientID: String? = nil, features: [String] = []
    ) throws -> [UInt8] {
        try WireJSON.encode(
            Hello(
                id: id, protocol: WireProtocol.version, client: client, app: app, clientId: clientID,
                features: features.isEmpty ? nil : features))
    }

    /// `dispatch {id, action: {name, payload}, sequence?}`; `sequence` numbers the action
    /// among those of the connection's client id.
    ///
    /// Only the payload goes through the encoder; the envelope around it is written by hand,
    /// with the same bytes the encoder would write (keys sorted).
    public static func dispatch(id: Int64, actionName: String, payload: some Encodable, sequence: UInt64? = nil) throws
        -> [UInt8]
    {
        let encodedPayload = try WireJSON.encode(payload)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedPayload.count + actionName.utf8.count + 64)
        bytes += #"{"action":{"name":"#.utf8
        try WireJSON.appendString(actionName, to: &bytes)
        bytes += #","payload":"#.utf8
        bytes += encodedPayload
        bytes += (#"},"id":\#(id)"# + (sequence.map { #","sequence":\#($0)"# } ?? "") + #","type":"dispatch"}"#).utf8
        return bytes
    }

    /// `subscribe {id, viewModel, params}`.
    public static func subscribe(id: Int64, viewModel: String, params: some Encodable) throws -> [UInt8] {
        try WireJSON.encode(Subscribe(id: id, viewModel: viewModel, params: params))
    }

    /// `unsubscribe {id, subscription}`.
    public static func unsubscribe(id: Int64, subscription: Int64) throws -> [UInt8] {
        try WireJSON.encode(Unsubscribe(id: id, subscription: subscription))
    }

    /// `ping {id}`.
    public static func ping(id: Int64) throws -> [UInt8] {
        try WireJSON.encode(Ping(id: id))
    }

    /// `history {id, after?, limit}`.
    public static func history(id: Int64, after: UInt64?, limit: Int) throws -> [UInt8] {
        try WireJSON.encode(History(id: id, after: after, limit: limit))
    }

    /// `get {id, viewModel, params, at?}`.
    public static func get(id: Int64, viewModel: String, params: some Encodable, at version: UInt64?) throws -> [UInt8]
    {
        try WireJSON.encode(Get(id: id, viewModel: viewModel, params: params, at: version))
    }

    private struct Hello: Encodable {
        let type = "hello"
        let id: Int64
        let `protocol`: Int
        let client: String
        let app: String?
        let clientId: String?
        let features: [String]?
    }

    private struct Subscribe<Params: Encodable>: Encodable {
        let type = "subscribe"
        let id: Int64
        let viewModel: String
        let params: Params
    }

    private struct Get<Params: Encodable>: Encodable {
        let type = "get"
        let id: Int64
        let viewModel: String
        let params: Params
        let at: UInt64?
    }

    private struct Unsubscribe: Encodable {
        let type = "unsubscribe"
        let id: Int64
        let subscription: Int64
    }

    private struct Ping: Encodable {
        let type = "ping"
        let id: Int64
    }

    private struct History: Encodable {
        let type = "history"
        let id: Int64
        let after: UInt64?
        let limit: Int
    }
}
