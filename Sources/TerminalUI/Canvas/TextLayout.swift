/// Fitting text into cells by display width: truncating and word wrapping.
public enum TextLayout {
    /// The marker that ends a truncated text (plain ASCII: ambiguous-width characters such as
    /// U+2026 take two cells in some terminals).
    public static let ellipsis = "..."

    /// `text` if it fits in `width` cells, else as much of it as fits followed by `...`.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return text }
        let marker = width > ellipsis.count ? ellipsis : ""
        let room = width - marker.count
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if used + characterWidth > room { break }
            result.append(character)
            used += characterWidth
        }
        return result + marker
    }

    /// `text` broken into lines of at most `width` cells: at spaces where possible, inside
    /// words longer than a line otherwise. Runs of spaces at a break are dropped.
    public static func wrap(_ text: String, toWidth width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = DisplayWidth.of(word)
            if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if wordWidth <= width {
                line = String(word)
                lineWidth = wordWidth
                continue
            }
            for character in word {
                let characterWidth = max(DisplayWidth.of(character), 0)
                if lineWidth + characterWidth > width {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                line.append(character)
                lineWidth += characterWidth
            }
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` padded with spaces on the left to `width` cells (numbers in a column).
    public static func padLeft(_ text: String, toWidth width: Int) -> String {
        String(repeating: " ", count: max(0, width - DisplayWidth.of(text))) + text
    }
}
