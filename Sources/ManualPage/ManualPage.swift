/// A Unix manual page as data, written out as roff for `man` (the `man` macros): the
/// command-line tools and daemons build theirs from the same tables as their `--help`, so the
/// two cannot drift.
public struct ManualPage: Sendable, Equatable {
    /// A term and its text: an option, a command, a variable.
    public struct Entry: Sendable, Equatable {
        /// What is described, as typed (`--socket PATH`).
        public var term: String
        /// Its lines; each stays a line of its own.
        public var lines: [String]

        /// An entry for `term`.
        public init(_ term: String, _ lines: [String]) {
            self.term = term
            self.lines = lines
        }
    }

    /// A section: a title (`OPTIONS`), paragraphs, then entries.
    public struct Section: Sendable, Equatable {
        /// The heading, in capitals by custom.
        public var title: String
        /// Paragraphs of running text.
        public var paragraphs: [String]
        /// Terms and their text.
        public var entries: [Entry]

        /// A section with these parts.
        public init(_ title: String, paragraphs: [String] = [], entries: [Entry] = []) {
            self.title = title
            self.paragraphs = paragraphs
            self.entries = entries
        }
    }

    /// The command (`todo`).
    public var name: String
    /// The manual section: 1 for user commands, 8 for daemons.
    public var section: Int
    /// The line after the name in NAME.
    public var summary: String
    /// The usage lines of SYNOPSIS.
    public var synopsis: [String]
    /// The sections after SYNOPSIS, in order.
    public var sections: [Section]
    /// The release, shown in the page's footer (`todo 0.1.0`).
    public var source: String

    /// A page with these parts.
    public init(
        name: String, section: Int, summary: String, synopsis: [String], sections: [Section], source: String
    ) {
        self.name = name
        self.section = section
        self.summary = summary
        self.synopsis = synopsis
        self.sections = sections
        self.source = source
    }

    /// The page in roff, as `man -l` reads it.
    public var roff: String {
        let manual = section == 8 ? "System Administration" : "User Commands"
        var lines = [
            ".TH \(name.uppercased()) \(section) \"\" \"\(Self.escaped(source))\" \"\(manual)\"",
            // Ragged right and no hyphens: options and JSON are typed as printed.
            ".ad l", ".nh",
            ".SH NAME", "\(Self.escaped(name)) \\- \(Self.escaped(summary))", ".SH SYNOPSIS", ".nf",
        ]
        lines += synopsis.map(Self.escaped)
        lines.append(".fi")
        for section in sections {
            lines.append(".SH \(Self.escaped(section.title))")
            for (index, paragraph) in section.paragraphs.enumerated() {
                if index > 0 { lines.append(".PP") }
                lines.append(Self.escaped(paragraph))
            }
            for entry in section.entries {
                lines += [".TP", "\\fB\(Self.escaped(entry.term))\\fR"]
                lines.append(entry.lines.map(Self.escaped).joined(separator: "\n.br\n"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as roff text: backslashes and dashes escaped, characters beyond ASCII as `\[uXXXX]`
    /// (troff reads bytes), a word longer than a line given break points after its commas, a
    /// line that would start with a control character protected.
    static func escaped(_ text: String) -> String {
        let breakable = text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.count > breakableLength ? word.replacingAll(",", with: "," + String(breakPoint)) : String(word)
        }.joined(separator: " ")
        let plain = breakable.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-").asciiEscaped
        return plain.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.first == "." || line.first == "'" ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}

/// Words longer than this get break points: the page is about 65 columns wide after indents.
private let breakableLength = 40
/// Stands for troff's zero-width break point `\:` until the text is escaped.
private let breakPoint: Unicode.Scalar = "\u{E000}"

extension StringProtocol {
    /// This text with every `target` replaced by `replacement` (without Foundation).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}

extension String {
    /// This text with each scalar beyond ASCII written as troff's `\[uXXXX]`, and each break
    /// point as `\:`.
    fileprivate var asciiEscaped: String {
        var result = ""
        for scalar in unicodeScalars {
            if scalar == breakPoint {
                result += "\\:"
            } else if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return result
    }

}
