/// How a cell is drawn: attributes and an optional foreground colour.
///
/// With `NO_COLOR` set the renderer draws every style plainly; views that need a mark to be
/// seen without attributes (the selected row) draw it as text too.
public struct Style: Hashable, Sendable, CustomStringConvertible {
    /// Bold (SGR 1).
    public var bold: Bool
    /// Faint (SGR 2).
    public var dim: Bool
    /// Underlined (SGR 4).
    public var underline: Bool
    /// Reverse video (SGR 7).
    public var reverse: Bool
    /// The text colour; `nil` is the terminal's default.
    public var foreground: Color?

    /// A style with the given attributes.
    public init(
        bold: Bool = false, dim: Bool = false, underline: Bool = false, reverse: Bool = false, foreground: Color? = nil
    ) {
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
        self.foreground = foreground
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// Whether this is the default look.
    public var isPlain: Bool { self == .plain }

    /// The attributes joined by `+` (`bold+reverse+green`), as snapshot files list them.
    public var description: String {
        var parts: [String] = []
        if bold { parts.append("bold") }
        if dim { parts.append("dim") }
        if underline { parts.append("underline") }
        if reverse { parts.append("reverse") }
        if let foreground { parts.append(String(describing: foreground)) }
        return parts.isEmpty ? "plain" : parts.joined(separator: "+")
    }
}
