import SyncClient
import SyncProtocol

/// One request line from the runner: `{"id", "op", "client"?, …arguments}`.
struct AdapterRequest: Sendable {
    /// The request's id, echoed in its reply.
    let id: JSONValue
    /// The operation (`connect`, `dispatch`, …).
    let op: String
    /// The client it is for (default `main`).
    let client: String
    /// Every field of the line.
    let fields: [String: JSONValue]

    /// The request in `line`, or the reason it is none.
    init(line: [UInt8]) throws(AdapterError) {
        guard case .object(let fields)? = try? WireJSON.decode(JSONValue.self, from: line) else {
            throw AdapterError(code: "bad_request", message: "a request line is one JSON object")
        }
        self.fields = fields
        id = fields["id"] ?? .null
        guard case .string(let op)? = fields["op"] else {
            throw AdapterError(code: "bad_request", message: "a request has a string \"op\"")
        }
        self.op = op
        if case .string(let client)? = fields["client"] { self.client = client } else { self.client = "main" }
    }

    /// The string field `name`.
    func string(_ name: String) throws(AdapterError) -> String {
        guard case .string(let value)? = fields[name] else {
            throw AdapterError(code: "bad_request", message: "\(op) needs a string \"\(name)\"")
        }
        return value
    }

    /// The integer field `name`, if present.
    func integer(_ name: String) throws(AdapterError) -> Int64? {
        switch fields[name] {
        case nil, .null?: return nil
        case .integer(let value)?: return value
        default: throw AdapterError(code: "bad_request", message: "\"\(name)\" is an integer")
        }
    }

    /// The integer field `name` that is a version, if present: 0 or more.
    func version(_ name: String) throws(AdapterError) -> UInt64? {
        guard let value = try integer(name) else { return nil }
        guard let version = UInt64(exactly: value) else {
            throw AdapterError(code: "bad_request", message: "\"\(name)\" is a version, 0 or more, not \(value)")
        }
        return version
    }

    /// The object field `name` (`{}` when absent).
    func object(_ name: String) -> JSONValue {
        fields[name] ?? .object([:])
    }
}

/// A failed request as the runner reads it: `{"code", "message"}`.
struct AdapterError: Error {
    /// The protocol's error code for a daemon's error, else the adapter's own word.
    let code: String
    /// One sentence.
    let message: String

    init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The runner's view of a client error: the daemon's code, or what happened.
    init(_ error: SyncClientError) {
        switch error {
        case .server(let code, let message): self.init(code: code, message: message)
        case .wrongApp(let message): self.init(code: ErrorCode.wrongApp.rawValue, message: message)
        case .unsupportedProtocol: self.init(code: ErrorCode.unsupportedProtocol.rawValue, message: error.description)
        case .daemonUnreachable, .daemonNotStarted: self.init(code: "unreachable", message: error.description)
        case .connectionClosed: self.init(code: "connection_closed", message: error.description)
        case .protocolViolation: self.init(code: "protocol_violation", message: error.description)
        }
    }

    /// `{"code", "message"}`.
    var json: JSONValue { .object(["code": .string(code), "message": .string(message)]) }
}
