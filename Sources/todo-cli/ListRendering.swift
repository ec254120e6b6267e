import CommandLineKit
import TodoDomain

/// How `list` and `watch` show a list model as text.
enum ListRendering {
    /// One line per item (`  3 [x] text`), then the counts.
    static func text(_ model: ListViewModel, filter: ListFilter) -> String {
        let width = String(model.items.map(\.number).max() ?? 0).count
        var lines = model.items.map { row in
            let number = String(row.number)
            return String(repeating: " ", count: width - number.count)
                + "\(number) [\(row.completed ? "x" : " ")] \(printable(row.text))"
        }
        if model.items.isEmpty {
            lines.append(filter == .all ? "no items" : "no \(filter.rawValue) items")
        }
        lines.append("\(model.openCount) open, \(model.doneCount) done")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with control characters shown as U+FFFD, so no text can drive the terminal
    /// (the daemon refuses them, but the terminal is ours to protect).
    static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.properties.generalCategory == .control ? "\u{FFFD}" : $0 }))
    }

    /// The model as one line of JSON with sorted keys: `{"doneCount":…,"items":[…],"openCount":…}`.
    static func json(_ model: ListViewModel) throws(CLIError) -> String {
        try JSONOutput.line(model, what: "the list")
    }
}
