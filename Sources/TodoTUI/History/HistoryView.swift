import TerminalUI
import TodoDomain

/// The read-only history mode, over the whole terminal: one past version of the list and the
/// action that made it.
///
/// ```
/// ┌ History: version 5 of 14 (all) ───────────┐
/// │ 5  edit #2 "walk the dog"                  │
/// │ 2024-05-01 12:00 UTC  uid 1000             │
/// │                                            │
/// │ 1 [x] buy milk                             │
/// │ 2 [ ] walk the dog                         │
/// │                                            │
/// │ 1 open, 1 done                             │
/// │                                            │
/// │ [ older  ] newer  Home End  h Esc back ... │
/// └────────────────────────────────────────────┘
/// ```
///
/// Keys: `[`/Left older (`didStep(-1)`), `]`/Right newer (`didStep(1)`), Home the start,
/// End the newest (`didJump`), `h`/Esc/`q` `didClose`. Every other key is taken and does
/// nothing: nothing is changed from here.
public final class HistoryView: ModellableView {
    /// The model shown; setting it repaints.
    public var model: HistoryModel? { didSet { if model != oldValue { update(oldModel: oldValue) } } }
    /// The view's cells.
    public var canvas = Canvas(size: .zero)

    /// `[`/Left (-1) or `]`/Right (+1).
    public var didStep: ((Int) -> Void)?
    /// Home (0) or End (the newest version).
    public var didJump: ((UInt64) -> Void)?
    /// `h`, Esc or `q`.
    public var didClose: (() -> Void)?

    /// An empty view.
    public init() {}

    /// The whole terminal.
    public func preferredSize(in available: Size) -> Size { available }

    /// Repaints the whole view: a step changes nearly everything on it.
    public func update(oldModel: HistoryModel?) {
        guard let model, canvas.size.columns >= 4, canvas.size.rows >= 3 else { return }
        let inner = Rect(row: 1, column: 1, columns: canvas.size.columns - 2, rows: canvas.size.rows - 2)
        canvas.fill(canvas.bounds)
        canvas.drawBox(
            canvas.bounds, title: "History: version \(model.version) of \(model.newest) (\(model.filter.rawValue))")
        var row = 1
        canvas.write(
            TextLayout.truncate("\(model.version)  \(model.change)", toWidth: inner.size.columns - 1), row: row,
            column: 2, style: Style(bold: true), clip: inner)
        row += 1
        if let entry = model.moment?.entry, model.moment?.version == model.version, row < inner.maxRow {
            let who = [entry.host, entry.uid.map { "uid \($0)" }].compactMap { $0 }.joined(separator: " ")
            canvas.write(
                TextLayout.truncate(
                    Timestamp.utc(milliseconds: entry.acceptedAt) + (who.isEmpty ? "" : "  " + who),
                    toWidth: inner.size.columns - 1),
                row: row, column: 2, style: Style(dim: true), clip: inner)
            row += 1
        }
        let footerRow = inner.maxRow - 1
        if let failure = model.failure {
            canvas.write(
                TextLayout.truncate(failure, toWidth: inner.size.columns - 1), row: min(row + 1, footerRow - 1),
                column: 2, clip: inner)
        } else if let moment = model.moment, moment.version == model.version {
            drawList(moment.list, from: row + 1, to: footerRow - 1, in: inner)
        }
        if footerRow > row {
            canvas.write(
                TextLayout.truncate(
                    "[ older  ] newer  Home End  h Esc back  (read-only)", toWidth: inner.size.columns - 1),
                row: footerRow, column: 2, style: Style(dim: true), clip: inner)
        }
    }

    private func drawList(_ list: ListViewModel?, from top: Int, to bottom: Int, in inner: Rect) {
        guard top < bottom else { return }
        let rows = list.map { Array($0.items) } ?? []
        guard !rows.isEmpty else {
            canvas.write("no items", row: top, column: 2, style: Style(dim: true), clip: inner)
            return
        }
        let numberWidth = String(rows.map(\.number).max() ?? 0).count
        let fitting = bottom - top
        for (offset, item) in rows.prefix(fitting).enumerated() {
            let last = offset == fitting - 1 && rows.count > fitting
            let line =
                last
                ? "... \(rows.count - fitting + 1) more"
                : TextLayout.padLeft(String(item.number), toWidth: numberWidth) + (item.completed ? " [x] " : " [ ] ")
                    + item.text
            canvas.write(
                TextLayout.truncate(line, toWidth: inner.size.columns - 2), row: top + offset, column: 2, clip: inner)
        }
        if let list, bottom - top > rows.count + 1 {
            canvas.write(
                "\(list.openCount) open, \(list.doneCount) done", row: top + rows.count + 1, column: 2,
                style: Style(dim: true), clip: inner)
        }
    }

    /// Turns the keys listed above into interaction callbacks; takes every key.
    public func handle(_ key: Key) -> Bool {
        switch key {
        case .character("["), .left: didStep?(-1)
        case .character("]"), .right: didStep?(1)
        case .home: didJump?(0)
        case .end: didJump?(model?.newest ?? 0)
        case .character("h"), .character("q"), .escape: didClose?()
        default: break
        }
        return true
    }
}
