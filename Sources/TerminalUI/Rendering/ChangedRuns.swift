/// Where two frames differ: per row, the column ranges to rewrite.
enum ChangedRuns {
    /// Columns `columns` of `row` must be written from the new frame. A run never starts on
    /// a continuation cell and never ends inside a wide character.
    struct Run: Hashable {
        var row: Int
        var columns: Range<Int>
    }

    /// The runs that turn `old` into `new` (same size), joining runs fewer than `joinGap`
    /// unchanged cells apart.
    static func find(from old: Canvas, to new: Canvas, joinGap: Int) -> [Run] {
        var runs: [Run] = []
        let width = new.size.columns
        var dirty = [Bool](repeating: false, count: width)
        for row in 0..<new.size.rows {
            let before = old.row(row)
            let after = new.row(row)
            guard before != after else { continue }
            var any = false
            for column in 0..<width {
                dirty[column] = before[before.startIndex + column] != after[after.startIndex + column]
                any = any || dirty[column]
            }
            guard any else { continue }
            widenToWholeCharacters(&dirty, before: before, after: after)
            runs.append(contentsOf: rowRuns(dirty, row: row, joinGap: joinGap))
        }
        return runs
    }

    /// A changed half of a wide character, in either frame, makes both halves changed.
    private static func widenToWholeCharacters(_ dirty: inout [Bool], before: ArraySlice<Cell>, after: ArraySlice<Cell>)
    {
        let width = dirty.count
        var changed = true
        while changed {
            changed = false
            for column in 0..<width where dirty[column] {
                for cells in [before, after] {
                    let cell = cells[cells.startIndex + column]
                    if cell.kind == .wide, column + 1 < width, !dirty[column + 1] {
                        dirty[column + 1] = true
                        changed = true
                    }
                    if cell.kind == .continuation, column > 0, !dirty[column - 1] {
                        dirty[column - 1] = true
                        changed = true
                    }
                }
            }
        }
    }

    /// Runs of changed columns; a changed wide character is already changed in both halves, so
    /// runs (and the unchanged cells joined into them) hold whole characters.
    private static func rowRuns(_ dirty: [Bool], row: Int, joinGap: Int) -> [Run] {
        var runs: [Run] = []
        var column = 0
        while column < dirty.count {
            guard dirty[column] else {
                column += 1
                continue
            }
            var end = column
            while end < dirty.count && dirty[end] { end += 1 }
            if var last = runs.last, column - last.columns.upperBound < joinGap {
                last.columns = last.columns.lowerBound..<end
                runs[runs.count - 1] = last
            } else {
                runs.append(Run(row: row, columns: column..<end))
            }
            column = end
        }
        return runs
    }
}
