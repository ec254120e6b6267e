import TerminalUI
import TerminalUITesting
import Testing

@Suite struct CanvasTests {
    @Test func writesClustersAtTheirWidthAndReturnsTheNextColumn() {
        var canvas = Canvas(size: Size(columns: 10, rows: 1))
        let end = canvas.write("a漢e\u{301}", row: 0, column: 1)
        #expect(end == 5)
        #expect(canvas[0, 2].kind == .wide && canvas[0, 3].kind == .continuation)
        #expect(SnapshotText.lines(canvas) == [" a漢e\u{301}"])
    }

    @Test func aWideCharacterThatDoesNotFitLeavesASpace() {
        var canvas = Canvas(size: Size(columns: 6, rows: 1), filledWith: Cell("."))
        let clip = Rect(row: 0, column: 0, columns: 4, rows: 1)
        #expect(canvas.write("ab漢字", row: 0, column: 0, clip: clip) == 4)
        #expect(SnapshotText.lines(canvas) == ["ab漢.."])
        #expect(canvas.write("abc漢", row: 0, column: 0, clip: clip) == 4)
        #expect(SnapshotText.lines(canvas) == ["abc .."], "the wide character is never split at the edge")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var canvas = Canvas(size: Size(columns: 4, rows: 1))
        canvas.write("漢字", row: 0, column: 0)
        canvas.put(Cell("x"), row: 0, column: 1)
        #expect(SnapshotText.lines(canvas) == [" x字"])
        canvas.put(Cell("y"), row: 0, column: 2)
        #expect(SnapshotText.lines(canvas) == [" xy"])
        #expect(canvas.cells.allSatisfy { $0.kind == .narrow })
    }

    @Test func drawingClipsWideCharactersCutByTheEdge() {
        var source = Canvas(size: Size(columns: 4, rows: 1))
        source.write("漢字", row: 0, column: 0)
        var target = Canvas(size: Size(columns: 6, rows: 1), filledWith: Cell("."))
        target.draw(source, at: Position(row: 0, column: 1), clip: Rect(row: 0, column: 2, columns: 4, rows: 1))
        #expect(SnapshotText.lines(target) == [".. 字."], "the cut 漢 leaves a blank, 字 is whole")
        var narrow = Canvas(size: Size(columns: 3, rows: 1), filledWith: Cell("."))
        narrow.draw(source, at: .origin)
        #expect(SnapshotText.lines(narrow) == ["漢"])
    }

    @Test func controlCharactersNeverReachTheGrid() {
        var canvas = Canvas(size: Size(columns: 8, rows: 1))
        canvas.write("a\u{1B}[2Jb", row: 0, column: 0)
        #expect(SnapshotText.lines(canvas) == ["a\u{FFFD}[2Jb"])
    }

    @Test func boxesFrameARectangleWithATitle() {
        var canvas = Canvas(size: Size(columns: 12, rows: 3))
        canvas.drawBox(canvas.bounds, title: "Add")
        #expect(SnapshotText.lines(canvas) == ["┌ Add ─────┐", "│          │", "└──────────┘"])
    }

    @Test func wrappingBreaksAtSpacesByDisplayWidth() {
        #expect(TextLayout.wrap("buy milk and eggs", toWidth: 9) == ["buy milk", "and eggs"])
        #expect(TextLayout.wrap("漢字漢字漢字", toWidth: 5) == ["漢字", "漢字", "漢字"])
        #expect(TextLayout.wrap("abcdefgh ij", toWidth: 3) == ["abc", "def", "gh", "ij"])
        #expect(TextLayout.wrap("", toWidth: 3) == [""])
    }

    @Test func truncationEndsWithThreeDotsAndNeverSplitsAWideCharacter() {
        #expect(TextLayout.truncate("buy milk", toWidth: 8) == "buy milk")
        #expect(TextLayout.truncate("buy milk today", toWidth: 8) == "buy m...")
        #expect(TextLayout.truncate("漢字漢字", toWidth: 6) == "漢...")
        #expect(DisplayWidth.of(TextLayout.truncate("漢字漢字", toWidth: 6)) <= 6)
        #expect(TextLayout.truncate("abcdef", toWidth: 2) == "ab")
    }
}
