import TerminalUI
import TodoDomain

/// The list of items: a title with the filter (and the visible range when the list scrolls),
/// then one row per item, `> ` and reverse video on the selected one.
///
/// ```
///  Items (all)                    1-3 of 40
///  >  1 [x] buy milk
///     2 [ ] walk the dog
/// ```
///
/// The view scrolls as little as needed to keep the selection visible. A change of selection
/// alone repaints two rows; anything else repaints the pane.
///
/// Keys: `j`/Down and `k`/Up move, PageDown/PageUp move a page, Home/`g` and End/`G` go to
/// the ends (all reported as `didSelect`); Space `didToggleItem`, `e` `didRequestEdit`, `d`
/// `didRequestDelete`.
public final class ListPaneView: BaseView<ListPaneModel> {
    /// The first row shown.
    public private(set) var scrollOffset = 0

    /// A row was selected (by its item number).
    public var didSelect: ((Int) -> Void)?
    /// Space on a row.
    public var didToggleItem: ((ListViewModel.Row) -> Void)?
    /// `e` on a row.
    public var didRequestEdit: ((ListViewModel.Row) -> Void)?
    /// `d` on a row.
    public var didRequestDelete: ((ListViewModel.Row) -> Void)?

    /// Rows available for items (all but the title).
    private var visibleRows: Int { max(0, canvas.size.rows - 1) }

    /// Repaints the two rows involved when only the selection moved, else the whole pane.
    override public func update(oldModel: ListPaneModel?) {
        guard let model, !canvas.size.isEmpty else { return }
        let previousOffset = scrollOffset
        scrollToSelection(model)
        if let oldModel, oldModel.rows == model.rows, oldModel.filter == model.filter,
            oldModel.isLoading == model.isLoading,
            previousOffset == scrollOffset
        {
            for index in [oldModel.selectedIndex, model.selectedIndex].compactMap({ $0 }) {
                drawRow(index, of: model)
            }
            return
        }
        drawTitle(model)
        for line in 0..<visibleRows {
            drawRow(scrollOffset + line, of: model)
        }
        if model.rows.isEmpty && visibleRows > 0 {
            let empty =
                model.isLoading
                ? "loading..."
                : model.filter == .all ? "no items - press a to add one" : "no \(model.filter.rawValue) items"
            canvas.writeLine(" " + empty, row: 1, style: Style(dim: true))
        }
    }

    /// Turns the keys listed above into interaction callbacks.
    override public func handle(_ key: Key) -> Bool {
        guard let model else { return false }
        let index = model.selectedIndex
        let row = index.map { model.rows[$0] }
        switch key {
        case .character("j"), .down: select(from: index, by: 1, in: model)
        case .character("k"), .up: select(from: index, by: -1, in: model)
        case .pageDown: select(from: index, by: max(1, visibleRows), in: model)
        case .pageUp: select(from: index, by: -max(1, visibleRows), in: model)
        case .character("g"), .home: select(from: nil, by: 0, in: model)
        case .character("G"), .end: select(from: nil, by: model.rows.count - 1, in: model)
        case .character(" "): if let row { didToggleItem?(row) }
        case .character("e"): if let row { didRequestEdit?(row) }
        case .character("d"): if let row { didRequestDelete?(row) }
        default: return false
        }
        return true
    }

    private func select(from index: Int?, by delta: Int, in model: ListPaneModel) {
        guard !model.rows.isEmpty else { return }
        let target = min(max(0, (index ?? 0) + delta), model.rows.count - 1)
        didSelect?(model.rows[target].number)
    }

    private func scrollToSelection(_ model: ListPaneModel) {
        if let index = model.selectedIndex {
            if index < scrollOffset { scrollOffset = index }
            if index >= scrollOffset + visibleRows { scrollOffset = index - visibleRows + 1 }
        }
        scrollOffset = min(max(0, scrollOffset), max(0, model.rows.count - visibleRows))
    }

    private func drawTitle(_ model: ListPaneModel) {
        let width = canvas.size.columns
        canvas.writeLine(" Items (\(model.filter.rawValue))", row: 0, style: Style(bold: true))
        if model.rows.count > visibleRows && visibleRows > 0 {
            let range =
                "\(scrollOffset + 1)-\(min(model.rows.count, scrollOffset + visibleRows)) of \(model.rows.count) "
            if width - DisplayWidth.of(" Items (\(model.filter.rawValue))") > range.count + 1 {
                canvas.write(range, row: 0, column: width - range.count, style: Style(dim: true))
            }
        }
    }

    /// Paints item `index` on its line, or a blank line when it is not in view.
    private func drawRow(_ index: Int, of model: ListPaneModel) {
        let line = 1 + index - scrollOffset
        guard line >= 1, line <= visibleRows else { return }
        guard index < model.rows.count else {
            canvas.writeLine("", row: line)
            return
        }
        let row = model.rows[index]
        let selected = row.number == model.selected
        let numberWidth = String(model.rows.map(\.number).max() ?? 0).count
        let number = TextLayout.padLeft(String(row.number), toWidth: numberWidth)
        var style = Style(reverse: selected)
        let prefix = "\(selected ? ">" : " ") \(number) [\(row.completed ? "x" : " ")] "
        canvas.writeLine(prefix, row: line, style: style)
        style.dim = row.completed && !selected
        let room = canvas.size.columns - prefix.count
        canvas.write(TextLayout.truncate(row.text, toWidth: room), row: line, column: prefix.count, style: style)
    }
}
