/// A help overlay listing an app's keys, two columns in a box titled by its model (as many keys
/// as fit, most needed first, with a blank line above and below when there is room). Any key
/// closes it (`didClose`). `KeyHelpScreen` presents it.
public final class KeyHelpView: BaseView<String> {
    /// Keys and what they do, most needed first (a short window shows the first ones).
    public let keys: [(key: String, action: String)]

    /// Any key.
    public var didClose: (() -> Void)?

    /// A help listing `keys`.
    public init(keys: [(key: String, action: String)]) {
        self.keys = keys
    }

    private var keyWidth: Int { keys.map { $0.key.count }.max() ?? 0 }

    /// The size asked for when presented modally.
    override public func preferredSize(in available: Size) -> Size {
        let width = 2 + keyWidth + 2 + (keys.map { $0.action.count }.max() ?? 0) + 2
        return Size(columns: min(available.columns, width), rows: min(available.rows, keys.count + 4))
    }

    /// Repaints the whole view: it is small, and shown only while in use.
    override public func update(oldModel: String?) {
        guard let model, canvas.size.columns >= 4, canvas.size.rows >= 3 else { return }
        let inner = Rect(row: 1, column: 1, columns: canvas.size.columns - 2, rows: canvas.size.rows - 2)
        canvas.fill(canvas.bounds)
        canvas.drawBox(canvas.bounds, title: model)
        let top = inner.size.rows >= keys.count + 2 ? 2 : 1
        for (index, entry) in keys.enumerated() where top + index < inner.maxRow {
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
