import BoardDomain
import TerminalUI

/// The board: its columns side by side, each a box titled with its name, its card count and
/// limit, holding its cards top first; the selected card marked `>` in reverse video; a
/// status line at the bottom.
///
/// ```
/// ┌ todo 2 ─────────┐┌ doing 1/2 ──────┐┌ done 0 ─────────┐
/// │> write the spec ││  review the PR  ││                 │
/// │  plan the demo *││                 ││                 │
/// └─────────────────┘└─────────────────┘└─────────────────┘
///  v12  3 cards, 0 archived                    ? help  q quit
/// ```
///
/// A card with notes ends in `*`. A column at its limit has its title in yellow. When the
/// columns would be narrower than `minimumColumnWidth`, only the selected one is shown (its
/// title says which: `doing 2/2 (2 of 3)`). The
/// selected column scrolls to keep the selection visible.
///
/// Keys: Left/`h` and Right/`l` select a column, Up/`k` and Down/`j` a card (`didSelect`);
/// `>` and `<` move the card to the next or previous column (`didMoveCard`); `J` and `K` move it
/// down or up its column (`didShiftCard`); `a` `didRequestAdd`, `x` `didRequestArchive`, `u`
/// `didRequestUndo`, `?` `didRequestHelp`, `q` `didRequestQuit`.
public final class BoardView: BaseView<BoardScreenModel> {
    /// The narrowest a column is drawn beside the others.
    public static let minimumColumnWidth = 12

    /// Arrows and `hjkl`: move the selection by columns and cards.
    public var didSelect: ((_ columns: Int, _ cards: Int) -> Void)?
    /// `>` (+1) and `<` (-1): move the selected card to a neighbouring column.
    public var didMoveCard: ((Int) -> Void)?
    /// `J` (+1) and `K` (-1): move the selected card down or up its column.
    public var didShiftCard: ((Int) -> Void)?
    /// `a`.
    public var didRequestAdd: (() -> Void)?
    /// `x`.
    public var didRequestArchive: (() -> Void)?
    /// `u`.
    public var didRequestUndo: (() -> Void)?
    /// `?`.
    public var didRequestHelp: (() -> Void)?
    /// `q`.
    public var didRequestQuit: (() -> Void)?

    /// Repaints each column whose cards, selection or place changed (all of them when the
    /// layout changed), and the status line.
    override public func update(oldModel: BoardScreenModel?) {
        guard let model, !canvas.size.isEmpty else { return }
        let paneRows = canvas.size.rows - 1
        let pane = Rect(row: 0, column: 0, columns: canvas.size.columns, rows: paneRows)
        let looks = Self.looks(of: model, in: pane)
        let oldLooks = oldModel.map { Self.looks(of: $0, in: pane) }
        if let looks, let oldLooks = oldLooks ?? nil, oldLooks.map(\.rect) == looks.map(\.rect) {
            for (old, new) in zip(oldLooks, looks) where old != new { draw(new) }
        } else {
            canvas.fill(pane)
            if let looks {
                looks.forEach(draw)
            } else {
                canvas.write("loading...", row: min(1, paneRows - 1), column: 1, style: Style(dim: true))
            }
        }
        drawStatus(model, row: paneRows)
    }

    /// What one column shows and where: when two models give a column the same look, it is
    /// not painted again.
    private struct ColumnLook: Equatable {
        let column: ColumnSummary
        let selected: Int?
        let isCurrent: Bool
        /// `(2 of 3)` when the column is shown alone.
        let place: String
        let rect: Rect
    }

    /// The columns `model` shows in `pane`, side by side or the selected one alone; nil while loading.
    private static func looks(of model: BoardScreenModel, in pane: Rect) -> [ColumnLook]? {
        guard let board = model.board else { return nil }
        let columns = board.columns
        guard !columns.isEmpty else { return [] }
        let sideBySide = pane.size.columns / columns.count >= minimumColumnWidth
        let shown = sideBySide ? Array(columns.indices) : [min(model.column, columns.count - 1)]
        let width = pane.size.columns / shown.count
        return shown.enumerated().map { slot, index in
            let left = slot * width
            let columnWidth = slot == shown.count - 1 ? pane.size.columns - left : width
            return ColumnLook(
                column: columns[index], selected: index == model.column ? model.card : nil,
                isCurrent: index == model.column,
                place: sideBySide ? "" : " (\(index + 1) of \(columns.count))",
                rect: Rect(row: pane.minRow, column: left, columns: columnWidth, rows: pane.size.rows))
        }
    }

    private func draw(_ look: ColumnLook) {
        let column = look.column
        let rect = look.rect
        canvas.fill(rect)
        let count = column.limit.map { "\(column.cards.count)/\($0)" } ?? "\(column.cards.count)"
        let isFull = column.limit.map { column.cards.count >= $0 } ?? false
        canvas.drawBox(
            rect, title: "\(column.name) \(count)\(look.place)",
            style: Style(bold: look.isCurrent, foreground: isFull ? .yellow : nil))
        let inner = Rect(
            row: rect.minRow + 1, column: rect.minColumn + 1, columns: rect.size.columns - 2, rows: rect.size.rows - 2)
        guard !inner.size.isEmpty else { return }
        let offset = max(0, (look.selected ?? 0) - inner.size.rows + 1)
        for line in 0..<inner.size.rows {
            let index = offset + line
            guard column.cards.indices.contains(index) else { break }
            let card = column.cards[index]
            let isSelected = index == look.selected
            let text = (isSelected ? "> " : "  ") + card.title
            let room = inner.size.columns - (card.hasNotes ? 1 : 0)
            let row = inner.minRow + line
            canvas.writeLine(
                TextLayout.truncate(text, toWidth: room), row: row, column: inner.minColumn,
                style: Style(reverse: isSelected), clip: inner)
            if card.hasNotes {
                canvas.write("*", row: row, column: inner.maxColumn - 1, style: Style(reverse: isSelected), clip: inner)
            }
        }
    }

    private func drawStatus(_ model: BoardScreenModel, row: Int) {
        let line = Style(reverse: true)
        canvas.writeLine("", row: row, style: line)
        let cards = model.board.map { $0.columns.reduce(0) { $0 + $1.cards.count } } ?? 0
        let counts =
            model.board.map { "\(cards) card\(cards == 1 ? "" : "s"), \($0.archivedCount) archived" } ?? "connecting..."
        let version = model.version.map { " v\($0)" } ?? ""
        var style = line
        style.bold = true
        let column = canvas.write(version, row: row, column: 0, style: style)
        let hint = "? help  q quit "
        let room = canvas.size.columns - column - 2 - hint.count
        let detail = model.message ?? model.connectionNote ?? counts
        canvas.write(
            TextLayout.truncate(detail, toWidth: max(0, canvas.size.columns - column - 2)), row: row,
            column: column + 2, style: line)
        if room >= DisplayWidth.of(detail) + 2 {
            canvas.write(hint, row: row, column: canvas.size.columns - hint.count, style: line)
        }
    }

    /// Turns the keys listed above into interaction callbacks.
    override public func handle(_ key: Key) -> Bool {
        switch key {
        case .left, .character("h"): didSelect?(-1, 0)
        case .right, .character("l"): didSelect?(1, 0)
        case .up, .character("k"): didSelect?(0, -1)
        case .down, .character("j"): didSelect?(0, 1)
        case .character(">"): didMoveCard?(1)
        case .character("<"): didMoveCard?(-1)
        case .character("J"): didShiftCard?(1)
        case .character("K"): didShiftCard?(-1)
        case .character("a"): didRequestAdd?()
        case .character("x"): didRequestArchive?()
        case .character("u"): didRequestUndo?()
        case .character("?"): didRequestHelp?()
        case .character("q"): didRequestQuit?()
        default: return false
        }
        return true
    }
}
