import TerminalUI

/// The help overlay: every key of `todo tui` (as many as fit, most needed first, with a blank
/// line above and below when there is room). Any key closes it (`didClose`).
public final class HelpView: BaseView<String> {
    /// Keys and what they do, most needed first (a short window shows the first ones).
    public static let keys: [(key: String, action: String)] = [
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

    /// Turns the keys listed above into interaction callbacks.
    override public func handle(_ key: Key) -> Bool {
        didClose?()
        return true
    }
}
