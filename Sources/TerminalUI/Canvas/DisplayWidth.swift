/// How many terminal cells a grapheme cluster (a Swift `Character`) takes, and what to show
/// for clusters a terminal cannot show as they are.
///
/// The width of a cluster is decided by its first scalar, as terminals do:
///
/// - East Asian Wide and Fullwidth characters (CJK, Hangul, kana, fullwidth forms) take 2.
/// - Emoji take 2: scalars with emoji presentation, text-default emoji followed by VS16
///   (U+FE0F), and so ZWJ sequences and skin tones (the whole cluster is one emoji), and a
///   pair of regional indicators (a flag). A lone regional indicator takes 1.
/// - Combining marks after a base add nothing: `e` + U+0301 takes 1.
/// - A cluster that is only a combining mark is shown on U+25CC (dotted circle) and takes 1,
///   so it never melts into the cell before it.
/// - Hangul medial vowels and final consonants without a leading consonant are shown after
///   the Hangul fillers (U+115F, U+1160), which make them a syllable block 2 cells wide
///   (terminals give them no width of their own).
/// - Invisible format characters on their own (ZWSP, a lone ZWJ, BOM) take 0 and are not
///   shown; visible ones (the soft hyphen, Arabic number signs) take 1.
/// - Control characters are shown as U+FFFD, 1 cell: no text may drive the terminal.
///
/// Ambiguous-width characters take 1, as in the C.UTF-8 locale. The table of wide ranges
/// agrees with glibc's `wcwidth` in C.UTF-8 (a test checks every scalar).
public enum DisplayWidth {
    /// What a cluster looks like on the grid: the character to write and its cells (0, 1 or 2).
    public struct Glyph: Hashable, Sendable {
        /// The character to send to the terminal.
        public var character: Character
        /// Cells taken.
        public var width: Int

        /// A glyph showing `character` in `width` cells.
        public init(character: Character, width: Int) {
            self.character = character
            self.width = width
        }
    }

    /// The glyph shown for `character`.
    public static func glyph(_ character: Character) -> Glyph {
        let scalars = character.unicodeScalars
        let first = scalars.first!
        if first.value < 0x7F && scalars.count == 1 {
            return first.value < 0x20 ? Glyph(character: "\u{FFFD}", width: 1) : Glyph(character: character, width: 1)
        }
        if first.value < 0x20 || first.value == 0x7F { return Glyph(character: "\u{FFFD}", width: 1) }
        switch first.properties.generalCategory {
        case .control, .surrogate:
            return Glyph(character: "\u{FFFD}", width: 1)
        case .nonspacingMark, .enclosingMark:
            return based(character, on: "\u{25CC}", width: 1)
        case .format where !isVisibleFormat(first) && scalars.allSatisfy({ $0.properties.generalCategory == .format }):
            return Glyph(character: character, width: 0)
        default:
            if (0x1160...0x11A7).contains(first.value) || (0xD7B0...0xD7C6).contains(first.value) {
                return based(character, on: "\u{115F}", width: 2)
            }
            if (0x11A8...0x11FF).contains(first.value) || (0xD7CB...0xD7FB).contains(first.value) {
                return based(character, on: "\u{115F}\u{1160}", width: 2)
            }
        }
        return Glyph(character: character, width: width(ofCluster: scalars, first: first))
    }

    /// Cells taken by `character` (0, 1 or 2).
    public static func of(_ character: Character) -> Int {
        glyph(character).width
    }

    /// Cells taken by `text`.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text {
            total += glyph(character).width
        }
        return total
    }

    private static func width(ofCluster scalars: Character.UnicodeScalarView, first: Unicode.Scalar) -> Int {
        if isRegionalIndicator(first) {
            return scalars.dropFirst().first.map(isRegionalIndicator) == true ? 2 : 1
        }
        if first.properties.isEmojiPresentation || isWide(first) { return 2 }
        if first.properties.isEmoji && scalars.contains("\u{FE0F}") { return 2 }
        return 1
    }

    /// `character` put on `base` so that it forms one cluster with a width of its own; U+FFFD
    /// if it still does not.
    private static func based(_ character: Character, on base: String, width: Int) -> Glyph {
        let text = base + String(character)
        guard text.count == 1 else { return Glyph(character: "\u{FFFD}", width: 1) }
        return Glyph(character: Character(text), width: width)
    }

    /// The format characters a terminal shows: the soft hyphen and the prepended
    /// concatenation marks (Arabic number signs and the like).
    private static func isVisibleFormat(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xAD, 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x110BD, 0x110CD: return true
        default: return false
        }
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// Whether `scalar` is East Asian Wide or Fullwidth (emoji apart).
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= wideRanges[0].lowerBound else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
