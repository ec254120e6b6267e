import SyncTerminalUI
import TerminalUI

/// Draws the status line: the connection and version on the left, then the last message or
/// the counts, and the help hint on the right when there is room. Reverse video; the
/// connection state is coloured (green, yellow, red), all of which `NO_COLOR` drops.
enum StatusLineRenderer {
    static func draw(_ status: StatusLineModel, on canvas: inout Canvas, row: Int) {
        let width = canvas.size.columns
        let line = Style(reverse: true)
        canvas.writeLine("", row: row, style: line)
        var connectionStyle = line
        connectionStyle.bold = true
        var connection = status.connection.text
        switch status.connection {
        case .connecting: break
        case .connected:
            // The version the models show, which may be newer than the connection's.
            connection = "connected" + (status.version.map { " v\($0)" } ?? "")
            connectionStyle.foreground = .green
        case .reconnecting: connectionStyle.foreground = .yellow
        case .disconnected: connectionStyle.foreground = .red
        }
        let hint = "h history  ? help  q quit "
        var column = canvas.write(
            TextLayout.truncate(" " + connection, toWidth: width), row: row, column: 0, style: connectionStyle)
        let detail = status.message ?? "\(status.openCount) open, \(status.doneCount) done"
        let room = width - column - 2
        if room > 0 {
            column = canvas.write(TextLayout.truncate(detail, toWidth: room), row: row, column: column + 2, style: line)
        }
        if width - column >= hint.count + 2 {
            canvas.write(hint, row: row, column: width - hint.count, style: line)
        }
    }
}
