import SyncProtocol

/// A message from a page (JSON text over the WebSocket):
///
/// ```
/// {"type":"subscribe","key":"list","viewModel":"list","params":{"filter":"all"},"have":12}
/// {"type":"unsubscribe","key":"list"}
/// {"type":"dispatch","id":3,"action":"add","payload":{"text":"milk"}}
/// ```
///
/// `key` is the page's name for a subscription; `have` (optional) the version of the model the
/// page holds, to resume from.
enum BrowserRequest: Equatable {
    /// Follow `viewModel` with `params` (JSON) under `key`, resuming from `have`.
    case subscribe(key: String, viewModel: String, params: [UInt8], have: UInt64?)
    /// Stop following `key`.
    case unsubscribe(key: String)
    /// Dispatch `action` with `payload` (JSON); the answer echoes `id`.
    case dispatch(id: Int64, action: String, payload: [UInt8])

    private struct Fields: Decodable {
        let type: String
        let key: String?
        let viewModel: String?
        let params: JSONValue?
        let have: UInt64?
        let id: Int64?
        let action: String?
        let payload: JSONValue?
    }

    /// Reads one message; throws a one-line reason when it is not one of the above.
    init(decoding text: [UInt8]) throws(BrowserRequestError) {
        guard let fields = try? WireJSON.decode(Fields.self, from: text) else {
            throw BrowserRequestError("The message is not a JSON object of the page protocol.")
        }
        switch fields.type {
        case "subscribe":
            guard let key = fields.key, let viewModel = fields.viewModel else {
                throw BrowserRequestError("subscribe needs key and viewModel.")
            }
            self = .subscribe(
                key: key, viewModel: viewModel, params: Self.encode(fields.params ?? .object([:])), have: fields.have)
        case "unsubscribe":
            guard let key = fields.key else { throw BrowserRequestError("unsubscribe needs key.") }
            self = .unsubscribe(key: key)
        case "dispatch":
            guard let id = fields.id, let action = fields.action else {
                throw BrowserRequestError("dispatch needs id and action.")
            }
            self = .dispatch(id: id, action: action, payload: Self.encode(fields.payload ?? .object([:])))
        default:
            throw BrowserRequestError("No message type is named \"\(fields.type)\".")
        }
    }

    private static func encode(_ value: JSONValue) -> [UInt8] {
        (try? WireJSON.encode(value)) ?? Array("{}".utf8)
    }
}

/// Why a page's message was not understood.
struct BrowserRequestError: Error, Equatable {
    /// One sentence.
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
