import SyncProtocol

/// A message from the gateway to a page (JSON text over the WebSocket):
///
/// ```
/// {"type":"hello","app":"todo","daemon":"live","version":12}
/// {"type":"daemon","state":"reconnecting"}            the daemon went away; "live" when back
/// {"type":"update","key":"list","version":14,"base":13,"patch":[…]}   or "model":{…} whole
/// {"type":"ack","id":3,"version":14}
/// {"type":"error","id":3,"code":"rejected","message":"no item 9"}     "id":null when no request
/// ```
enum GatewayMessage {
    /// The first message of a connection.
    case hello(app: String, daemonLive: Bool, version: UInt64)
    /// The daemon connection's state changed.
    case daemon(live: Bool, version: UInt64?)
    /// A dispatch was applied at `version`.
    case ack(id: Int64, version: UInt64)
    /// A request (or, with no id, a message) was refused.
    case error(id: Int64?, code: String, message: String)

    /// The JSON text.
    var bytes: [UInt8] {
        switch self {
        case .hello(let app, let live, let version):
            return Self.object([
                ("type", "\"hello\""), ("app", Self.string(app)), ("daemon", live ? "\"live\"" : "\"reconnecting\""),
                ("version", String(version)),
            ])
        case .daemon(let live, let version):
            var fields = [("type", "\"daemon\""), ("state", live ? "\"live\"" : "\"reconnecting\"")]
            if let version { fields.append(("version", String(version))) }
            return Self.object(fields)
        case .ack(let id, let version):
            return Self.object([("type", "\"ack\""), ("id", String(id)), ("version", String(version))])
        case .error(let id, let code, let message):
            return Self.object([
                ("type", "\"error\""), ("id", id.map { String($0) } ?? "null"), ("code", Self.string(code)),
                ("message", Self.string(message)),
            ])
        }
    }

    /// An `update` of subscription `key`: a patch from `base`, or the whole model.
    static func update(key: String, version: UInt64, base: UInt64?, body: [UInt8]) -> [UInt8] {
        var bytes = Array("{\"type\":\"update\",\"key\":".utf8) + Array(string(key).utf8)
        bytes += Array(",\"version\":\(version)".utf8)
        if let base {
            bytes += Array(",\"base\":\(base),\"patch\":".utf8)
        } else {
            bytes += Array(",\"model\":".utf8)
        }
        return bytes + body + [UInt8(ascii: "}")]
    }

    private static func object(_ fields: [(String, String)]) -> [UInt8] {
        Array(("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
    }

    private static func string(_ text: String) -> String {
        var bytes: [UInt8] = []
        try? WireJSON.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
