import SyncProtocol

/// Reads a fuzz input as a stream of choices, so a target can build structured values (a JSON
/// document, a patch, a split into pieces) from bytes the fuzzer mutates. Past the end every
/// choice is 0.
public struct ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    /// A source reading `bytes` from the start.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte was read.
    public var isExhausted: Bool { position >= bytes.count }

    /// The bytes not read yet.
    public var rest: [UInt8] { position < bytes.count ? Array(bytes[position...]) : [] }

    /// The next byte.
    public mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    /// A number below `count` (which is at least 1).
    public mutating func below(_ count: Int) -> Int {
        Int(byte()) % count
    }

    /// A JSON value: small containers, few distinct keys (so that patches find their paths),
    /// finite numbers only.
    public mutating func jsonValue(depth: Int = 0) -> JSONValue {
        switch below(depth > 3 ? 6 : 9) {
        case 0: return .null
        case 1: return .bool(byte() & 1 == 1)
        case 2: return .integer(Int64(Int8(bitPattern: byte())) * Int64(1 + below(1000)))
        case 3: return .number(Double(Int8(bitPattern: byte())) / 4 + 0.125)
        case 4, 5: return .string(key())
        case 6: return .array((0..<below(5)).map { _ in jsonValue(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<below(5) { members[key()] = jsonValue(depth: depth + 1) }
            return .object(members)
        }
    }

    /// A short string from an alphabet with the characters JSON Pointer and JSON escape
    /// (`~`, `/`, quotes, controls) and some beyond ASCII.
    public mutating func key() -> String {
        let alphabet: [String] = ["a", "b", "0", "1", "~", "/", "~0", "~1", "\"", "\\", "\n", "é", "✓", "😀", " ", ""]
        return (0..<below(4)).map { _ in alphabet[below(alphabet.count)] }.joined()
    }

    /// A JSON Pointer into a document like `jsonValue` builds, or a broken one now and then.
    public mutating func pointer() -> String {
        let tokens = (0..<below(4)).map { _ -> String in
            switch below(6) {
            case 0: return String(below(6))
            case 1: return "-"
            case 2: return "0\(below(3))"
            default: return JSONPatch.pointer([key()]).dropFirst().description
            }
        }
        let path = tokens.map { "/" + $0 }.joined()
        switch below(16) {
        case 0: return "a" + path
        case 1: return path + "~"
        case 2: return path + "~2"
        default: return path
        }
    }
}
