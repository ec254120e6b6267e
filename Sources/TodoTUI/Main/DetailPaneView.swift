import TerminalUI
import TodoDomain

/// The selected item in full: number, state, times, and the whole text wrapped to the pane.
///
/// ```
///  Item 3
///  status   done 2024-05-01 12:00 UTC
///  created  2024-05-01 11:58 UTC
///
///  the whole text, wrapped at spaces to
///  the width of the pane
/// ```
public final class DetailPaneView: BaseView<DetailPaneModel> {
    /// Repaints the pane: a few lines, all of which change with the item.
    override public func update(oldModel: DetailPaneModel?) {
        guard let model, !canvas.size.isEmpty else { return }
        var lines: [(String, Style)] = []
        switch model {
        case .nothingSelected:
            lines = [(" No item selected", Style(bold: true))]
        case .loading(let number):
            lines = [(" Item \(number)", Style(bold: true)), (" loading...", Style(dim: true))]
        case .missing(let number):
            lines = [(" Item \(number)", Style(bold: true)), (" removed", Style(dim: true))]
        case .item(let item):
            lines = [(" Item \(item.number)", Style(bold: true))]
            let state =
                item.completedAt.map { "done " + Timestamp.utc(milliseconds: $0) } ?? (item.completed ? "done" : "open")
            lines.append((" status   " + state, .plain))
            lines.append((" created  " + Timestamp.utc(milliseconds: item.createdAt), .plain))
            lines.append(("", .plain))
            lines += TextLayout.wrap(item.text, toWidth: max(1, canvas.size.columns - 2)).map { (" " + $0, .plain) }
        }
        let rows = canvas.size.rows
        if lines.count > rows, rows > 0 {
            lines = Array(lines.prefix(rows))
            lines[rows - 1].0 = TextLayout.truncate(
                lines[rows - 1].0 + " " + TextLayout.ellipsis, toWidth: canvas.size.columns)
        }
        for row in 0..<rows {
            let (text, style) = row < lines.count ? lines[row] : ("", .plain)
            canvas.writeLine(text, row: row, style: style)
        }
    }
}
