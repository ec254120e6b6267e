/// Text being typed into a field: the text and the cursor, edited by keys as a value.
///
/// Views turn a key into the edited value (`editing(with:)`) and report it to their screen,
/// which keeps it in its model: the field's content is state like any other.
///
/// Keys: characters insert; Backspace and Delete remove; Left, Right, Home, End (and Ctrl-A,
/// Ctrl-E) move; Ctrl-U clears before the cursor, Ctrl-K after it, Ctrl-W the word before it.
public struct TextInput: Hashable, Sendable {
    /// The text.
    public private(set) var text: String
    /// Characters (grapheme clusters) before the cursor.
    public private(set) var cursor: Int

    /// `text` with the cursor at `cursor` characters (default: at the end).
    public init(_ text: String = "", cursor: Int? = nil) {
        self.text = text
        self.cursor = min(max(0, cursor ?? text.count), text.count)
    }

    /// The input after `key`, or nil when `key` does not edit text (Enter, Escape, arrows up
    /// and down…).
    public func editing(with key: Key) -> TextInput? {
        let before = String(text.prefix(cursor))
        let after = String(text.dropFirst(cursor))
        switch key {
        case .character(let character):
            let head = before + String(character)
            return TextInput(head + after, cursor: head.count)
        case .backspace:
            return TextInput(String(before.dropLast()) + after, cursor: max(0, before.count - 1))
        case .delete:
            return TextInput(before + after.dropFirst(), cursor: cursor)
        case .left:
            return TextInput(text, cursor: cursor - 1)
        case .right:
            return TextInput(text, cursor: cursor + 1)
        case .home, .control("a"):
            return TextInput(text, cursor: 0)
        case .end, .control("e"):
            return TextInput(text, cursor: text.count)
        case .control("u"):
            return TextInput(after, cursor: 0)
        case .control("k"):
            return TextInput(before, cursor: cursor)
        case .control("w"):
            let kept = String(before.reversed().drop(while: { $0 == " " }).drop(while: { $0 != " " }).reversed())
            return TextInput(kept + after, cursor: kept.count)
        default:
            return nil
        }
    }

    /// The part of the text shown in a field `width` cells wide, scrolled so the cursor is
    /// visible, and the cursor's column in it. The cursor needs a cell of its own at the end.
    public func visible(inWidth width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 0 else { return ("", 0) }
        var shownBefore = ""
        var used = 0
        for character in text.prefix(cursor).reversed() {
            let characterWidth = DisplayWidth.of(character)
            guard used + characterWidth <= width - 1 else { break }
            shownBefore = String(character) + shownBefore
            used += characterWidth
        }
        var shown = shownBefore
        var total = used
        for character in text.dropFirst(cursor) {
            let characterWidth = DisplayWidth.of(character)
            guard total + characterWidth <= width else { break }
            shown.append(character)
            total += characterWidth
        }
        return (shown, used)
    }
}
