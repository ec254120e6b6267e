import SyncStore

/// An RFC 6902 JSON Patch: the operations that turn one JSON document into another.
///
/// `JSONPatch(from:to:)` computes a small patch for the way view models change (a field
/// replaced, rows inserted or removed in one place of a list); `apply(to:)` replays one. Only
/// `add`, `remove` and `replace` are produced; applying also understands `test`.
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

    /// The patch that turns `old` into `new`.
    public init(from old: JSONValue, to new: JSONValue) {
        var operations: [Operation] = []
        Self.diff(old, new, path: "", into: &operations)
        self.operations = operations
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

    private static func diff(_ old: JSONValue, _ new: JSONValue, path: String, into operations: inout [Operation]) {
        if old == new { return }
        switch (old, new) {
        case (.object(let before), .object(let after)):
            for key in before.keys.sorted() where after[key] == nil {
                operations.append(Operation(op: "remove", path: path + "/" + JSONPointer.escape(key)))
            }
            for key in after.keys.sorted() {
                let memberPath = path + "/" + JSONPointer.escape(key)
                if let previous = before[key] {
                    diff(previous, after[key]!, path: memberPath, into: &operations)
                } else {
                    operations.append(Operation(op: "add", path: memberPath, value: after[key]!))
                }
            }
        case (.array(let before), .array(let after)):
            diffArrays(before, after, path: path, into: &operations)
        default:
            operations.append(Operation(op: "replace", path: path, value: new))
        }
    }

    /// Paired elements of the middle are compared in depth, the rest removed or added (see
    /// `ArrayDifference`).
    private static func diffArrays(
        _ before: [JSONValue], _ after: [JSONValue], path: String, into operations: inout [Operation]
    ) {
        let difference = ArrayDifference(from: before, to: after)
        for index in difference.paired {
            diff(before[index], after[index], path: path + "/\(index)", into: &operations)
        }
        for index in difference.removed { operations.append(Operation(op: "remove", path: path + "/\(index)")) }
        for index in difference.added {
            operations.append(Operation(op: "add", path: path + "/\(index)", value: after[index]))
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
