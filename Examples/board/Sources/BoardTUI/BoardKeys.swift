/// The keys of the board screen, as its help overlay (`KeyHelpScreen`) lists them.
public enum BoardKeys {
    /// Keys and what they do, most needed first (a short window shows the first ones).
    public static let help: [(key: String, action: String)] = [
        ("Left Right h l", "select a column"),
        ("Up Down k j", "select a card"),
        ("> <", "move the card to the next / previous column"),
        ("J K", "move the card down / up"),
        ("a", "add a card to this column"),
        ("x", "archive the card"),
        ("u", "undo the last change"),
        ("q Ctrl-C", "quit"),
        ("?", "this help"),
    ]
}
