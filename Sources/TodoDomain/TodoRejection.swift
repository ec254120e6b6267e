/// Why the todo domain refused an action. The description is the one sentence users see.
public enum TodoRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// No item has this number.
    case noSuchItem(Int)
    /// The text is empty after trimming.
    case emptyText
    /// The text is longer than the limit.
    case textTooLong(length: Int)
    /// The text holds control characters (escape sequences, line breaks, tabs…).
    case controlCharacters
    /// `undo` found no change left to revert.
    case nothingToUndo
    /// An imported item is not valid: the reason, with the item's id.
    case invalidImport(String)
    /// The action was dispatched without the values fixed at acceptance.
    case notAccepted

    /// One human-readable sentence.
    public var description: String {
        switch self {
        case .noSuchItem(let number): return "no item \(number)"
        case .emptyText: return "the text is empty"
        case .textTooLong(let length):
            return "the text has \(length) characters; at most \(TodoText.maximumLength) are allowed"
        case .controlCharacters: return "the text contains control characters (line breaks, tabs, escape sequences)"
        case .nothingToUndo: return "nothing to undo"
        case .invalidImport(let reason): return "cannot import: \(reason)"
        case .notAccepted: return "the action was not accepted by the daemon"
        }
    }
}

/// The rules for item text.
public enum TodoText {
    /// The most characters an item's text may have, after trimming.
    public static let maximumLength = 1000

    /// `text` trimmed of surrounding whitespace, or a rejection if it is empty, too long, or
    /// holds control characters: items are one line, shown on other people's terminals, where
    /// an escape sequence would take over the screen.
    public static func validated(_ text: String) throws(TodoRejection) -> String {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !trimmed.isEmpty else { throw .emptyText }
        guard trimmed.count <= maximumLength else { throw .textTooLong(length: trimmed.count) }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { throw .controlCharacters }
        return trimmed
    }
}
