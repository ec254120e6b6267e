/// The escape sequences this library sends, in one place (ECMA-48 / xterm).
public enum ControlSequence {
    /// Switches to the alternate screen (the shell's screen is kept and comes back on leave).
    public static let enterAlternateScreen = "\u{1B}[?1049h"
    /// Switches back to the normal screen.
    public static let leaveAlternateScreen = "\u{1B}[?1049l"
    /// Hides the cursor.
    public static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor.
    public static let showCursor = "\u{1B}[?25h"
    /// Turns automatic wrapping off, so writing the last column never scrolls.
    public static let disableAutowrap = "\u{1B}[?7l"
    /// Turns automatic wrapping back on.
    public static let enableAutowrap = "\u{1B}[?7h"
    /// Asks the terminal to report focus changes (`ESC [ I`, `ESC [ O`).
    public static let enableFocusEvents = "\u{1B}[?1004h"
    /// Stops focus reports.
    public static let disableFocusEvents = "\u{1B}[?1004l"
    /// Resets every attribute.
    public static let resetStyle = "\u{1B}[0m"
    /// Moves to the top-left corner and erases the screen.
    public static let clearScreen = "\u{1B}[H\u{1B}[2J"

    /// Moves the cursor to `position` (0-based; the sequence is 1-based).
    public static func moveCursor(to position: Position) -> String {
        "\u{1B}[\(position.row + 1);\(position.column + 1)H"
    }

    /// Sets exactly the attributes of `style` (reset first, so no attribute lingers).
    public static func select(_ style: Style) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if let foreground = style.foreground { codes.append(String(30 + Int(foreground.rawValue))) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// What restores a terminal left in any state by this library: the leading reset also
    /// ends a sequence cut off halfway (ESC starts a new sequence in any parser state).
    public static let restore = resetStyle + disableFocusEvents + enableAutowrap + showCursor + leaveAlternateScreen

    /// What prepares the terminal for a full-screen program.
    public static let setUp = enterAlternateScreen + disableAutowrap + enableFocusEvents + hideCursor + clearScreen
}
