import TerminalUI
import TodoDomain

/// The question before deleting, presented modally.
///
/// ```
/// ┌ Delete item 3? ─────────────────┐
/// │                                  │
/// │ walk the dog                     │
/// │                                  │
/// │ y delete   n keep                │
/// └──────────────────────────────────┘
/// ```
///
/// `y` is `didConfirm`; `n` and Esc are `didCancel`.
public final class ConfirmDeleteView: BaseView<ListViewModel.Row> {
    /// `y`.
    public var didConfirm: (() -> Void)?
    /// `n` or Esc.
    public var didCancel: (() -> Void)?

    /// The size asked for when presented modally.
    override public func preferredSize(in available: Size) -> Size {
        Size(columns: min(available.columns, 50), rows: min(available.rows, 6))
    }

    /// Repaints the whole view: it is small, and shown only while in use.
    override public func update(oldModel: ListViewModel.Row?) {
        guard let model, canvas.size.columns >= 4, canvas.size.rows >= 3 else { return }
        let inner = Rect(row: 1, column: 1, columns: canvas.size.columns - 2, rows: canvas.size.rows - 2)
        canvas.fill(canvas.bounds)
        canvas.drawBox(canvas.bounds, title: "Delete item \(model.number)?")
        let textRow = min(2, inner.maxRow - 1)
        canvas.write(
            TextLayout.truncate(model.text, toWidth: inner.size.columns - 2), row: textRow, column: 2, clip: inner)
        if textRow + 2 < inner.maxRow {
            canvas.write("y delete   n keep", row: textRow + 2, column: 2, style: Style(dim: true), clip: inner)
        }
    }

    /// Turns the keys listed above into interaction callbacks.
    override public func handle(_ key: Key) -> Bool {
        switch key {
        case .character("y"): didConfirm?()
        case .character("n"), .escape: didCancel?()
        default: return false
        }
        return true
    }
}
