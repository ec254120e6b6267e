import SyncDiff

/// An RFC 6902 JSON Patch: the operations that turn one JSON document into another.
///
/// `JSONPatch.changes(from:to:)` finds a small patch for the way view models change (a field
/// replaced, rows inserted or removed in one place of a list) as `ModelChange`s, which
/// `JSONPatchWriter` writes; `apply(to:)` replays one. Only `add`, `remove` and `replace` are
/// produced; applying also understands `test`.
public struct JSONPatch: Codable, Equatable, Sendable {
    /// One operation. `path` is a JSON Pointer (RFC 6901).
    public struct Operation: Codable, Equatable, Sendable {
        /// `add`, `remove`, `replace` or `test`.
        public var op: String
        /// Where the operation applies.
        public var path: String
        /// The value added, put in place or tested (absent for `remove`).
        public var value: JSONValue?

        /// An operation with every field given.
        public init(op: String, path: String, value: JSONValue? = nil) {
            self.op = op
            self.path = path
            self.value = value
        }

        private enum CodingKeys: String, CodingKey { case op, path, value }

        /// Decodes an operation; a `"value": null` is the value null, not a missing value.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            op = try container.decode(String.self, forKey: .op)
            path = try container.decode(String.self, forKey: .path)
            value = container.contains(.value) ? try container.decode(JSONValue.self, forKey: .value) : nil
        }

        /// Encodes the operation; `value` only when there is one.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(op, forKey: .op)
            try container.encode(path, forKey: .path)
            if let value { try container.encode(value, forKey: .value) }
        }
    }

    /// The operations, applied in order.
    public var operations: [Operation]

    /// The JSON Pointer of `tokens` (member names and array indices, unescaped).
    public static func pointer(_ tokens: [String]) -> String {
        tokens.map { "/" + JSONPointer.escape($0) }.joined()
    }

    /// A patch of `operations`.
    public init(operations: [Operation]) {
        self.operations = operations
    }

    /// The patch that turns `old` into `new`: `changes(from:to:)` as `JSONPatchWriter` writes
    /// them, read back.
    public init(from old: JSONValue, to new: JSONValue) {
        do {
            self = try WireJSON.decode(JSONPatch.self, from: JSONPatchWriter.encode(Self.changes(from: old, to: new)))
        } catch {
            preconditionFailure("a patch of JSON values failed to encode: \(error)")
        }
    }

    /// The changes that turn `old` into `new`: members removed, added or changed in depth,
    /// arrays compared as `ModelChange.arrayChanges` does with paired elements compared in depth,
    /// anything else replaced.
    public static func changes(from old: JSONValue, to new: JSONValue) -> [ModelChange] {
        var changes: [ModelChange] = []
        diff(old, new, path: [], into: &changes)
        return changes
    }

    /// Encodes as the bare array of operations the RFC describes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(operations)
    }

    /// Decodes the bare array of operations.
    public init(from decoder: any Decoder) throws {
        operations = try decoder.singleValueContainer().decode([Operation].self)
    }

    /// `document` with the patch applied; throws `JSONPatchError` when an operation does not fit.
    public func apply(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var document = document
        for operation in operations {
            let tokens = try JSONPointer.tokens(of: operation.path)
            switch operation.op {
            case "add":
                try JSONPointer.modify(&document, at: tokens[...], path: operation.path) {
                    parent, last throws(JSONPatchError) in
                    try parent.insert(try operation.requiredValue(), at: last, path: operation.path)
                }
            case "remove":
                try JSONPointer.modify(&document, at: tokens[...], path: operation.path) {
                    parent, last throws(JSONPatchError) in
                    try parent.remove(at: last, path: operation.path)
                }
            case "replace":
                let value = try operation.requiredValue()
                if tokens.isEmpty {
                    document = value
                } else {
                    try JSONPointer.modify(&document, at: tokens[...], path: operation.path) {
                        parent, last throws(JSONPatchError) in
                        try parent.remove(at: last, path: operation.path)
                        try parent.insert(value, at: last, path: operation.path)
                    }
                }
            case "test":
                guard
                    try JSONPointer.value(in: document, at: tokens[...], path: operation.path)
                        == operation.requiredValue()
                else {
                    throw .testFailed(path: operation.path)
                }
            default:
                throw .unsupportedOperation(operation.op)
            }
        }
        return document
    }

    private static func diff(_ old: JSONValue, _ new: JSONValue, path: [String], into changes: inout [ModelChange]) {
        if old == new { return }
        switch (old, new) {
        case (.object(let before), .object(let after)):
            for key in before.keys.sorted() where after[key] == nil {
                changes.append(.remove(path: path + [key]))
            }
            for key in after.keys.sorted() {
                if let previous = before[key] {
                    diff(previous, after[key]!, path: path + [key], into: &changes)
                } else {
                    changes.append(.add(path: path + [key], value: after[key]!))
                }
            }
        case (.array(let before), .array(let after)):
            changes += ModelChange.arrayChanges(from: before, to: after, at: path, firstIndex: 0) { index, position in
                var inside: [ModelChange] = []
                diff(before[index], after[index], path: position, into: &inside)
                return inside
            }
        default:
            changes.append(.replace(path: path, value: new))
        }
    }
}

/// Why a patch does not apply.
public enum JSONPatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A path is not a JSON Pointer.
    case invalidPath(String)
    /// A path names a member or element that is not there.
    case missingTarget(path: String)
    /// An `add`, `replace` or `test` without a value.
    case missingValue(path: String)
    /// A `test` operation found another value.
    case testFailed(path: String)
    /// An operation this implementation does not apply (`move`, `copy`).
    case unsupportedOperation(String)

    /// One line naming the operation's path.
    public var description: String {
        switch self {
        case .invalidPath(let path): return "\"\(path)\" is not a JSON Pointer"
        case .missingTarget(let path): return "nothing at \"\(path)\""
        case .missingValue(let path): return "the operation at \"\(path)\" has no value"
        case .testFailed(let path): return "the value at \"\(path)\" is not the one tested"
        case .unsupportedOperation(let op): return "unsupported patch operation \"\(op)\""
        }
    }
}

extension JSONPatch.Operation {
    fileprivate func requiredValue() throws(JSONPatchError) -> JSONValue {
        guard let value else { throw .missingValue(path: path) }
        return value
    }
}
