/// Small text helpers for the CLI's messages and generated scripts.
extension String {
    /// The text with single quotes replaced, for a single-quoted shell word.
    var replacingQuotes: String { String(map { $0 == "'" ? "`" : $0 }) }

    /// The text, or `replacement` if it is empty.
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
