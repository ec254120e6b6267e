/// Small text helpers for the CLI's messages.
extension String {
    /// The text, or `replacement` if it is empty.
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
