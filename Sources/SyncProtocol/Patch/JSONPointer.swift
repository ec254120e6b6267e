/// RFC 6901 JSON Pointers over `JSONValue`, for `JSONPatch`.
enum JSONPointer {
    /// `token` escaped for a pointer (`~` → `~0`, `/` → `~1`).
    static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        var escaped = ""
        for character in token {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The unescaped reference tokens of `path` (`""` is the whole document).
    static func tokens(of path: String) throws(JSONPatchError) -> [String] {
        if path.isEmpty { return [] }
        guard path.hasPrefix("/") else { throw .invalidPath(path) }
        return try path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            escaped throws(JSONPatchError) in
            var token = ""
            var index = escaped.startIndex
            while index < escaped.endIndex {
                let character = escaped[index]
                index = escaped.index(after: index)
                guard character == "~" else {
                    token.append(character)
                    continue
                }
                switch index < escaped.endIndex ? escaped[index] : " " {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw .invalidPath(path)
                }
                index = escaped.index(after: index)
            }
            return token
        }
    }

    /// The value at `tokens` in `document`.
    static func value(in document: JSONValue, at tokens: ArraySlice<String>, path: String) throws(JSONPatchError)
        -> JSONValue
    {
        guard let first = tokens.first else { return document }
        switch document {
        case .object(let members):
            guard let member = members[first] else { throw .missingTarget(path: path) }
            return try value(in: member, at: tokens.dropFirst(), path: path)
        case .array(let elements):
            guard let index = arrayIndex(first), elements.indices.contains(index) else {
                throw .missingTarget(path: path)
            }
            return try value(in: elements[index], at: tokens.dropFirst(), path: path)
        default:
            throw .missingTarget(path: path)
        }
    }

    /// Calls `change` with the container holding the last token, and that token, changing
    /// `document` in place.
    static func modify(
        _ document: inout JSONValue, at tokens: ArraySlice<String>, path: String,
        _ change: (inout JSONValue, String) throws(JSONPatchError) -> Void
    ) throws(JSONPatchError) {
        guard let first = tokens.first else { throw .invalidPath(path) }
        if tokens.count == 1 {
            try change(&document, first)
            return
        }
        switch document {
        case .object(var members):
            guard var member = members[first] else { throw .missingTarget(path: path) }
            document = .null
            members[first] = nil
            try modify(&member, at: tokens.dropFirst(), path: path, change)
            members[first] = member
            document = .object(members)
        case .array(var elements):
            guard let index = arrayIndex(first), elements.indices.contains(index) else {
                throw .missingTarget(path: path)
            }
            document = .null
            var element = elements[index]
            elements[index] = .null
            try modify(&element, at: tokens.dropFirst(), path: path, change)
            elements[index] = element
            document = .array(elements)
        default:
            throw .missingTarget(path: path)
        }
    }

    /// An array index token as RFC 6901 writes one: `0`, or digits without a leading zero (no
    /// sign); anything else names no element.
    static func arrayIndex(_ token: String) -> Int? {
        guard let first = token.utf8.first, token.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            first != 0x30 || token.utf8.count == 1
        else { return nil }
        return Int(token)
    }
}

extension JSONValue {
    /// Adds `value` as member or element `token` (`-` appends to an array).
    mutating func insert(_ value: JSONValue, at token: String, path: String) throws(JSONPatchError) {
        switch self {
        case .object(var members):
            self = .null
            members[token] = value
            self = .object(members)
        case .array(var elements):
            let index = token == "-" ? elements.count : JSONPointer.arrayIndex(token) ?? -1
            guard (0...elements.count).contains(index) else { throw .missingTarget(path: path) }
            self = .null
            elements.insert(value, at: index)
            self = .array(elements)
        default:
            throw .missingTarget(path: path)
        }
    }

    /// Removes member or element `token`.
    mutating func remove(at token: String, path: String) throws(JSONPatchError) {
        switch self {
        case .object(var members):
            guard members[token] != nil else { throw .missingTarget(path: path) }
            self = .null
            members[token] = nil
            self = .object(members)
        case .array(var elements):
            guard let index = JSONPointer.arrayIndex(token), elements.indices.contains(index) else {
                throw .missingTarget(path: path)
            }
            self = .null
            elements.remove(at: index)
            self = .array(elements)
        default:
            throw .missingTarget(path: path)
        }
    }
}
