extension Error {
    /// Where decoding failed, in a few words, for error messages.
    package var shortDescription: String {
        switch self as? DecodingError {
        case .keyNotFound(let key, _): return "missing field \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let envelope: Set<String> = ["action", "payload", "params"]
            let path = context.codingPath.map(\.stringValue).filter { !envelope.contains($0) }
            return path.isEmpty ? "wrong type" : "field \"\(path.joined(separator: "."))\" has the wrong type or value"
        default: return String(describing: self)
        }
    }
}
