extension Error {
    /// Where decoding failed, in a few words, for error messages.
    package var shortDescription: String {
        switch self as? DecodingError {
        case .keyNotFound(let key, _): return "missing field \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).filter {
                $0 != "action" && $0 != "payload" && $0 != "params"
            }
            return path.isEmpty ? "wrong type" : "field \"\(path.joined(separator: "."))\" has the wrong type or value"
        default: return String(describing: self)
        }
    }
}
