/// The rules for the text of the board: card titles, notes and column names are one line each,
/// shown on other people's terminals.
public enum BoardText {
    /// The most characters a card title may have, after trimming.
    public static let titleLimit = 200
    /// The most characters a card's notes may have, after trimming.
    public static let notesLimit = 2000
    /// The most characters a column name may have, after trimming.
    public static let columnNameLimit = 24

    /// `text` trimmed of surrounding whitespace, or a rejection naming `field` if it is empty,
    /// longer than `limit` characters, or holds control characters (an escape sequence would
    /// take over the terminal showing it).
    public static func validated(_ text: String, field: String, limit: Int) throws(BoardRejection) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { throw .invalidText(field: field, reason: "is empty") }
        let trimmed = String(scalars[first...last])
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidText(
                field: field, reason: "contains control characters (line breaks, tabs, escape sequences)")
        }
        guard trimmed.count <= limit else {
            throw .invalidText(field: field, reason: "has \(trimmed.count) characters; at most \(limit) are allowed")
        }
        return trimmed
    }

    /// A column name: as `validated`, and without spaces, so that it is one word on a command line.
    public static func columnName(_ text: String) throws(BoardRejection) -> String {
        let name = try validated(text, field: "column name", limit: columnNameLimit)
        guard !name.contains(where: \.isWhitespace) else {
            throw .invalidText(field: "column name", reason: "contains spaces")
        }
        return name
    }
}
