/// One cell of the grid: a grapheme cluster and its style.
///
/// A wide character (CJK, most emoji) takes two cells: a `.wide` cell holding the character
/// and a `.continuation` cell right of it holding nothing. A canvas never holds one half
/// without the other.
public struct Cell: Hashable, Sendable {
    /// How much of a character the cell holds.
    public enum Kind: Hashable, Sendable {
        /// A character one cell wide.
        case narrow
        /// The left half of a character two cells wide.
        case wide
        /// The right half of the wide character to its left.
        case continuation
    }

    /// The character shown (a space in a continuation cell).
    public var character: Character
    /// How the cell is drawn.
    public var style: Style
    /// Narrow, wide or continuation.
    public var kind: Kind

    /// A cell showing `character`.
    public init(_ character: Character, style: Style = .plain, kind: Kind = .narrow) {
        self.character = character
        self.style = style
        self.kind = kind
    }

    /// A space in the default style: what a cleared terminal shows.
    public static let blank = Cell(" ")

    /// A space in `style`.
    public static func blank(_ style: Style) -> Cell { Cell(" ", style: style) }
}
