import SyncProtocol

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
    /// The change an `undo` named (`undoing`) is no longer the latest: `latest` landed first.
    case undoOvertaken(undoing: String, latest: String)
    /// An imported item is not valid: the reason, with the item's id.
    case invalidImport(String)
    /// The action was dispatched without the values fixed at acceptance.
    case notAccepted
    /// An `expireDone` age that is negative or beyond 100 years, in seconds.
    case invalidAge(Int64)
    /// A remove for items done by a time found item `number` open, or done later.
    case notDoneBy(number: Int, time: Int64)

    /// One human-readable sentence.
    public var description: String {
        switch self {
        case .noSuchItem(let number): return "no item \(number)"
        case .emptyText: return "the text is empty"
        case .textTooLong(let length):
            return "the text has \(length) characters; at most \(TodoText.maximumLength) are allowed"
        case .controlCharacters: return "the text contains control characters (line breaks, tabs, escape sequences)"
        case .nothingToUndo: return "nothing to undo"
        case .undoOvertaken(let undoing, let latest):
            return "nothing was undone: the undo was for \(undoing), but a newer change (\(latest)) landed first"
        case .invalidImport(let reason): return "cannot import: \(reason)"
        case .notAccepted: return "the action was not accepted by the daemon"
        case .notDoneBy(let number, let time):
            return "item \(number) was not done by \(time) ms since the epoch; it stays"
        case .invalidAge(let seconds):
            return "the age must be from 0 to \(ExpireDone.maximumSeconds) seconds, not \(seconds)"
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
        if let trimmed = trimmedPrintableASCII(text) {
            guard !trimmed.isEmpty else { throw .emptyText }
            guard trimmed.utf8.count <= maximumLength else { throw .textTooLong(length: trimmed.utf8.count) }
            return trimmed
        }
        // Scalar by scalar: walking characters backwards through generic reversed views cost
        // thousands of instructions per character, most of the daemon's time per `add`.
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { throw .emptyText }
        let trimmed = String(scalars[first...last])
        // General category Cc is exactly C0, DEL and C1; comparing values spares a Unicode
        // table lookup per scalar.
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw .controlCharacters
        }
        let length = trimmed.count
        guard length <= maximumLength else { throw .textTooLong(length: length) }
        return trimmed
    }

    /// `text` trimmed of spaces if every byte of it is printable ASCII, the common case, where
    /// the only whitespace is the space and each character is one byte; nil otherwise. A text
    /// with nothing to trim is returned itself, not copied (a copy was an allocation per edit).
    private static func trimmedPrintableASCII(_ text: String) -> String? {
        var text = text
        var trimmed: String?
        let isPrintableASCII = text.withUTF8 { bytes -> Bool in
            guard PrintableASCII.contains(only: bytes) else { return false }
            guard let first = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 })
            else {
                trimmed = ""
                return true
            }
            if first > 0 || last < bytes.count - 1 {
                trimmed = String(decoding: UnsafeBufferPointer(rebasing: bytes[first...last]), as: UTF8.self)
            }
            return true
        }
        guard isPrintableASCII else { return nil }
        return trimmed ?? text
    }
}
