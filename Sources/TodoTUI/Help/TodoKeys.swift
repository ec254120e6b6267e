/// The keys of `todo tui`, as its help overlay (`KeyHelpScreen`) lists them.
public enum TodoKeys {
    /// Keys and what they do, most needed first (a short window shows the first ones).
    public static let help: [(key: String, action: String)] = [
        ("j k Down Up", "move"),
        ("Space", "done / open again"),
        ("a", "add an item"),
        ("e", "edit the selected item"),
        ("d", "delete it (asks first)"),
        ("f", "filter: all, open, done"),
        ("u", "undo the last change"),
        ("h", "history, read-only"),
        ("q Ctrl-C", "quit"),
        ("PgDn PgUp", "move a page"),
        ("Home End", "first / last item"),
        ("?", "this help"),
    ]
}
