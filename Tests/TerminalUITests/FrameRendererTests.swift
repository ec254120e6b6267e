import TerminalUI
import TerminalUITesting
import TestSupport
import Testing

@MainActor @Suite struct FrameRendererTests {
    private let size = Size(columns: 20, rows: 6)

    /// A terminal set up as `SystemTerminal` sets up the real one (no autowrap, cursor hidden).
    private func makeTerminal() -> FakeTerminal {
        let terminal = FakeTerminal(size: size)
        terminal.write(Array(ControlSequence.setUp.utf8))
        return terminal
    }

    private func frame(_ lines: [String], style: Style = .plain) -> Canvas {
        var canvas = Canvas(size: size)
        for (row, line) in lines.enumerated() { canvas.write(line, row: row, column: 0, style: style) }
        return canvas
    }

    @Test func theFirstFrameClearsAndDrawsEverything() {
        let terminal = makeTerminal()
        var renderer = FrameRenderer(colors: true)
        terminal.write(renderer.render(frame(["hello", "", "漢字 wide"]), cursor: nil))
        #expect(terminal.lines.prefix(3) == ["hello", "", "漢字 wide"])
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func anUnchangedFrameWritesNothing() {
        var renderer = FrameRenderer(colors: true)
        _ = renderer.render(frame(["same"]), cursor: nil)
        #expect(renderer.render(frame(["same"]), cursor: nil).isEmpty)
    }

    @Test func onlyChangedCellsAreWritten() {
        var renderer = FrameRenderer(colors: true)
        _ = renderer.render(frame(["buy milk", "walk the dog"]), cursor: nil)
        let bytes = renderer.render(frame(["buy milk", "walk the cat"]), cursor: nil)
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[2;10Hcat")
    }

    @Test func styleChangesAreSentOnceAndResetAtTheEnd() {
        var renderer = FrameRenderer(colors: true)
        _ = renderer.render(frame(["ab"]), cursor: nil)
        var next = frame(["ab"])
        next.write("ab", row: 0, column: 0, style: Style(reverse: true))
        #expect(
            String(decoding: renderer.render(next, cursor: nil), as: UTF8.self) == "\u{1B}[1;1H\u{1B}[0;7mab\u{1B}[0m")
    }

    @Test func noColorSendsNoAttributesAtAll() {
        let terminal = makeTerminal()
        var renderer = FrameRenderer(colors: false)
        var styled = frame(["plain"])
        styled.write("selected", row: 1, column: 0, style: Style(bold: true, reverse: true, foreground: .green))
        let bytes = String(decoding: renderer.render(styled, cursor: nil), as: UTF8.self)
        #expect(!bytes.contains("m"), "no SGR sequence: \(bytes.debugDescription)")
        terminal.write(Array(bytes.utf8))
        #expect(terminal.lines.prefix(2) == ["plain", "selected"])
        var restyled = styled
        restyled.write("selected", row: 1, column: 0, style: .plain)
        #expect(
            renderer.render(restyled, cursor: nil).isEmpty, "a change of style alone changes nothing without colours")
    }

    @Test func theCursorIsShownWhereAskedAndHiddenOtherwise() {
        let terminal = makeTerminal()
        var renderer = FrameRenderer(colors: true)
        terminal.write(renderer.render(frame(["> abc"]), cursor: Position(row: 0, column: 5)))
        #expect(terminal.isCursorVisible && terminal.cursor == Position(row: 0, column: 5))
        terminal.write(renderer.render(frame(["> abcd"]), cursor: Position(row: 0, column: 6)))
        #expect(terminal.isCursorVisible && terminal.cursor == Position(row: 0, column: 6))
        terminal.write(renderer.render(frame(["> abcd"]), cursor: nil))
        #expect(!terminal.isCursorVisible)
    }

    @Test func replacingWideCharactersKeepsTheScreenExact() {
        let terminal = makeTerminal()
        var renderer = FrameRenderer(colors: true)
        let frames = [frame(["漢字漢字"]), frame(["a漢字漢字"]), frame(["ab c"]), frame(["😀x👍🏽"]), frame(["x😀👍🏽"])]
        for next in frames {
            terminal.write(renderer.render(next, cursor: nil))
            #expect(terminal.screen == next)
        }
        #expect(terminal.unsupported.isEmpty)
    }

    /// Random frames of narrow, wide and styled cells, one after another: after each, the
    /// emulated terminal shows exactly the frame.
    @Test(arguments: [false, true])
    func randomFramesAreReproducedExactly(colors: Bool) {
        var random = SeededRandom(seed: colors ? 7 : 11)
        let alphabet: [Character] = ["a", "b", " ", "漢", "字", "😀", "é", "-", "🇫🇷"]
        let styles = [Style.plain, Style(reverse: true), Style(bold: true, foreground: .red)]
        let terminal = makeTerminal()
        var renderer = FrameRenderer(colors: colors)
        var current = Canvas(size: size)
        for _ in 0..<300 {
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let text = String(
                    (0..<Int.random(in: 1...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
                current.write(
                    text, row: Int.random(in: 0..<size.rows, using: &random),
                    column: Int.random(in: 0..<size.columns, using: &random),
                    style: styles.randomElement(using: &random)!)
            }
            terminal.write(renderer.render(current, cursor: nil))
            #expect(terminal.screen == (colors ? current : current.withoutStyles()))
        }
        #expect(terminal.unsupported.isEmpty, "\(terminal.unsupported.prefix(3))")
    }

    @Test func aOneRowChangeCostsAFractionOfAFullRedraw() {
        let large = Size(columns: 132, rows: 43)
        var canvas = Canvas(size: large)
        for row in 0..<large.rows {
            canvas.write(
                "\(row) [ ] item text number \(row) with some words to fill the row", row: row, column: 0,
                style: row == 3 ? Style(reverse: true) : .plain)
        }
        var renderer = FrameRenderer(colors: true)
        let full = renderer.render(canvas, cursor: nil).count
        canvas.write("20 [x]", row: 20, column: 0)
        let oneRow = renderer.render(canvas, cursor: nil).count
        #expect(oneRow > 0 && oneRow * 50 < full, "one row: \(oneRow) bytes, full: \(full) bytes")
    }
}
