import TerminalUI

/// The help overlay: every key of the board screen (as many as fit, most needed first). Any
/// key closes it (`didClose`). Nothing in it changes: its model is the title.
public final class BoardHelpView: BaseView<String> {
    /// Keys and what they do, most needed first (a short window shows the first ones).
    public static let keys: [(key: String, action: String)] = [
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

    /// Any key.
    public var didClose: (() -> Void)?

    /// The size asked for when presented modally.
    override public func preferredSize(in available: Size) -> Size {
        let keyWidth = Self.keys.map { $0.key.count }.max() ?? 0
        let width = 2 + keyWidth + 2 + (Self.keys.map { $0.action.count }.max() ?? 0) + 2
        return Size(columns: min(available.columns, width), rows: min(available.rows, Self.keys.count + 4))
    }

    /// Repaints the whole view: it is small, and shown only while in use.
    override public func update(oldModel: String?) {
        guard let model, canvas.size.columns >= 4, canvas.size.rows >= 3 else { return }
        let inner = Rect(row: 1, column: 1, columns: canvas.size.columns - 2, rows: canvas.size.rows - 2)
        canvas.fill(canvas.bounds)
        canvas.drawBox(canvas.bounds, title: model)
        let keyWidth = Self.keys.map { $0.key.count }.max() ?? 0
        let top = inner.size.rows >= Self.keys.count + 2 ? 2 : 1
        for (index, entry) in Self.keys.enumerated() where top + index < inner.maxRow {
            let row = top + index
            canvas.write(entry.key, row: row, column: 2, style: Style(bold: true), clip: inner)
            canvas.write(entry.action, row: row, column: 2 + keyWidth + 2, clip: inner)
        }
    }

    /// Any key closes the help.
    override public func handle(_ key: Key) -> Bool {
        didClose?()
        return true
    }
}
