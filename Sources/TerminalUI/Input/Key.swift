/// A key press, decoded from the bytes a terminal sends.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// A printable character (one Unicode scalar as typed; the text it goes into joins
    /// combining marks into clusters).
    case character(Character)
    /// Ctrl with a letter: `control("c")` is Ctrl-C (byte 0x03).
    case control(Character)
    /// The arrow keys.
    case up, down, left, right
    /// The keys that move further.
    case home, end, pageUp, pageDown
    /// Insert and Delete (forward).
    case insert, delete
    /// Enter (CR or LF), Tab, Shift-Tab, Backspace (DEL or BS), Escape.
    case enter, tab, backTab, backspace, escape

    /// How the key is named in help texts and test failures.
    public var description: String {
        switch self {
        case .character(let character): return String(character)
        case .control(let letter): return "Ctrl-\(letter.uppercased())"
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PageUp"
        case .pageDown: return "PageDown"
        case .insert: return "Insert"
        case .delete: return "Delete"
        case .enter: return "Enter"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .backspace: return "Backspace"
        case .escape: return "Esc"
        }
    }
}
