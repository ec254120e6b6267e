/// Builds the JSON payloads of client requests, for clients written in Swift.
public enum RequestEncoder {
    /// `hello {id, protocol, client, clientId?, features?}` for this build's protocol version.
    /// A `clientID` asks for exactly-once dispatch: numbered dispatches from it apply once.
    /// `features` asks for optional behaviours such as `patch` updates.
    public static func hello(id: Int64, client: String, clientID: String? = nil, features: [String] = []) throws -> [UInt8] {
        try WireJSON.encode(Hello(id: id, protocol: WireProtocol.version, client: client, clientId: clientID, features: features.isEmpty ? nil : features))
    }

    /// `dispatch {id, action: {name, payload}, sequence?}`; `sequence` numbers the action
    /// among those of the connection's client id.
    ///
    /// Only the payload goes through `JSONEncoder`; the envelope around it is written by hand,
    /// with the same bytes the encoder would write (keys sorted), when the action name needs
    /// no escaping.
    public static func dispatch(id: Int64, actionName: String, payload: some Encodable, sequence: UInt64? = nil) throws -> [UInt8] {
        guard isPlainName(actionName) else {
            return try WireJSON.encode(Dispatch(id: id, action: .init(name: actionName, payload: payload), sequence: sequence))
        }
        let encodedPayload = try WireJSON.encode(payload)
        let head = #"{"action":{"name":"\#(actionName)","payload":"#
        let tail = #"},"id":\#(id)"# + (sequence.map { #","sequence":\#($0)"# } ?? "") + #","type":"dispatch"}"#
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.utf8.count + encodedPayload.count + tail.utf8.count)
        bytes.append(contentsOf: head.utf8)
        bytes.append(contentsOf: encodedPayload)
        bytes.append(contentsOf: tail.utf8)
        return bytes
    }

    /// Whether `name` is written in JSON as it is: letters, digits, `_`, `-` and `.` only.
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
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

    private struct Hello: Encodable {
        let type = "hello"
        let id: Int64
        let `protocol`: Int
        let client: String
        let clientId: String?
        let features: [String]?
    }

    private struct Dispatch<Payload: Encodable>: Encodable {
        struct Action: Encodable {
            let name: String
            let payload: Payload
        }
        let type = "dispatch"
        let id: Int64
        let action: Action
        let sequence: UInt64?
    }

    private struct Subscribe<Params: Encodable>: Encodable {
        let type = "subscribe"
        let id: Int64
        let viewModel: String
        let params: Params
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
