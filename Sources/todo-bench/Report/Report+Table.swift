import Foundation

extension Report {
    /// The figures as one plain-text table: each measure, todo-sync's value, Redis's, the
    /// ratio and the target, with a verdict.
    func table() -> String {
        let header = ["fig", "measure", "unit", "todo-sync", "Redis", "ratio", "target", "met"]
        var lines: [[String]] = [header]
        for figure in figures {
            for row in figure.rows {
                lines.append([
                    "\(figure.figure)", row.measure, row.unit, Self.format(row.ours), row.redis.map(Self.format) ?? "-",
                    row.ratio.map { String(format: "%.2fx", $0) } ?? "-", row.target ?? "-",
                    row.met.map { $0 ? "yes" : "NO" } ?? "-",
                ])
            }
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        let rightAligned: Set<Int> = [3, 4, 5]
        var text = ""
        for (index, line) in lines.enumerated() {
            let cells = line.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            text += cells.joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
            if index == 0 { text += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        return text
    }

    /// A value with as many digits as it deserves: thousands grouped, small values with decimals.
    static func format(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 10_000 {
            let digits = String(Int(value.rounded()))
            var grouped = ""
            for (index, character) in digits.reversed().enumerated() {
                if index > 0 && index % 3 == 0 && character != "-" { grouped.append(",") }
                grouped.append(character)
            }
            return String(grouped.reversed())
        }
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        if magnitude >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.3f", value)
    }
}
