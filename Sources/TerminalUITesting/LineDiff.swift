/// A readable line diff for snapshot failures: `-` expected, `+` actual, two lines of
/// context, long unchanged stretches folded.
enum LineDiff {
    private enum Line {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The differences between `expected` and `actual`, one line each.
    static func describe(expected: String, actual: String, context: Int = 2) -> String {
        let lines = diff(split(expected), split(actual))
        var output: [String] = []
        var index = 0
        while index < lines.count {
            guard case .same = lines[index] else {
                output.append(format(lines[index]))
                index += 1
                continue
            }
            var end = index
            while end < lines.count, case .same = lines[end] { end += 1 }
            let leading = index == 0 ? 0 : context
            let trailing = end == lines.count ? 0 : context
            if end - index > leading + trailing + 1 {
                output.append(contentsOf: lines[index..<index + leading].map(format))
                output.append("  ... \(end - index - leading - trailing) unchanged lines")
                output.append(contentsOf: lines[end - trailing..<end].map(format))
            } else {
                output.append(contentsOf: lines[index..<end].map(format))
            }
            index = end
        }
        return output.joined(separator: "\n")
    }

    private static func split(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    private static func format(_ line: Line) -> String {
        switch line {
        case .same(let text): return "  " + text
        case .removed(let text): return "- " + text
        case .added(let text): return "+ " + text
        }
    }

    /// A longest-common-subsequence diff (snapshots are a few dozen lines).
    private static func diff(_ old: [String], _ new: [String]) -> [Line] {
        var common = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines: [Line] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                lines.append(.same(old[i]))
                i += 1
                j += 1
            } else if i < old.count, j == new.count || common[i + 1][j] >= common[i][j + 1] {
                lines.append(.removed(old[i]))
                i += 1
            } else {
                lines.append(.added(new[j]))
                j += 1
            }
        }
        return lines
    }
}
