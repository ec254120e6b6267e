/// A one-line form, presented modally (`TextFormScreen`): a box with a text field, the
/// refusal of the last attempt if any, and the keys.
///
/// ```
/// ┌ Add item ─────────────────────────────┐
/// │                                        │
/// │ > buy milk_                            │
/// │ the text is empty                      │
/// │ Enter save   Esc cancel                │
/// └────────────────────────────────────────┘
/// ```
///
/// Keys that edit the text are reported as `didEdit` with the edited `TextInput`; Enter is
/// `didSubmit`, Esc `didCancel`.
public final class TextFormView: BaseView<TextFormModel> {
    /// A form showing nothing until it has a model.
    override public init() {}

    /// The text changed.
    public var didEdit: ((TextInput) -> Void)?
    /// Enter.
    public var didSubmit: (() -> Void)?
    /// Esc.
    public var didCancel: (() -> Void)?

    /// The size asked for when presented modally.
    override public func preferredSize(in available: Size) -> Size {
        Size(columns: min(available.columns, 60), rows: min(available.rows, 6))
    }

    /// Repaints the whole view: it is small, and shown only while in use.
    override public func update(oldModel: TextFormModel?) {
        guard let model, canvas.size.columns >= 4, canvas.size.rows >= 3 else { return }
        let inner = Rect(row: 1, column: 1, columns: canvas.size.columns - 2, rows: canvas.size.rows - 2)
        canvas.fill(canvas.bounds)
        canvas.drawBox(canvas.bounds, title: model.title)
        let fieldRow = min(2, inner.maxRow - 1)
        canvas.write("> ", row: fieldRow, column: 2, clip: inner)
        let fieldColumn = 4
        let fieldWidth = max(0, inner.maxColumn - 1 - fieldColumn)
        let (shown, cursorColumn) = model.input.visible(inWidth: fieldWidth)
        canvas.write(shown, row: fieldRow, column: fieldColumn, style: Style(underline: true), clip: inner)
        cursor = fieldWidth > 0 ? Position(row: fieldRow, column: fieldColumn + cursorColumn) : nil
        if fieldRow + 1 < inner.maxRow, let error = model.error {
            canvas.write(
                TextLayout.truncate(error, toWidth: inner.size.columns - 2), row: fieldRow + 1, column: 2,
                style: Style(foreground: .red), clip: inner)
        }
        if fieldRow + 2 < inner.maxRow {
            let keys = model.isSending ? model.sendingLabel : "Enter \(model.submitLabel)   Esc cancel"
            canvas.write(keys, row: fieldRow + 2, column: 2, style: Style(dim: true), clip: inner)
        }
    }

    /// Turns the keys listed above into interaction callbacks.
    override public func handle(_ key: Key) -> Bool {
        guard let model else { return false }
        switch key {
        case .enter: didSubmit?()
        case .escape: didCancel?()
        default:
            guard let edited = model.input.editing(with: key) else { return false }
            didEdit?(edited)
        }
        return true
    }
}
