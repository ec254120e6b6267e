import TerminalUI
import Testing

@Suite struct KeyDecoderTests {
    private func decode(_ text: String) -> [TerminalEvent] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    private func decodeByteByByte(_ text: String) -> [TerminalEvent] {
        var decoder = KeyDecoder()
        var events: [TerminalEvent] = []
        for byte in text.utf8 { events += decoder.feed([byte]) }
        return events + decoder.flush()
    }

    @Test func arrowsInBothCursorModes() {
        let expected: [TerminalEvent] = [.key(.up), .key(.down), .key(.right), .key(.left)]
        #expect(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == expected)
        #expect(decode("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == expected)
        #expect(decodeByteByByte("\u{1B}[A\u{1B}OB\u{1B}[C\u{1B}[D") == expected)
        #expect(decode("\u{1B}[1;5A") == [.key(.up)], "modifiers are ignored")
    }

    @Test func editingAndPagingKeys() {
        #expect(
            decode("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[3~\u{1B}[5~\u{1B}[6~\u{1B}[2~\u{1B}[Z") == [
                .key(.home), .key(.end), .key(.home), .key(.end), .key(.delete), .key(.pageUp), .key(.pageDown),
                .key(.insert), .key(.backTab),
            ])
        #expect(
            decode("\r\n\u{7F}\u{08}\t") == [
                .key(.enter), .key(.enter), .key(.backspace), .key(.backspace), .key(.tab),
            ])
        #expect(decode("\u{03}\u{15}") == [.key(.control("c")), .key(.control("u"))])
    }

    @Test func focusReports() {
        #expect(decode("\u{1B}[I\u{1B}[O") == [.focus(true), .focus(false)])
    }

    @Test func aLoneEscapeWaitsUntilFlushed() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPendingInput)
        #expect(decoder.flush() == [.key(.escape)])
        #expect(!decoder.hasPendingInput)
        #expect(decoder.feed(Array("\u{1B}[".utf8)).isEmpty, "a sequence cut short waits")
        #expect(decoder.feed(Array("B".utf8)) == [.key(.down)])
    }

    @Test func escapeBeforeAnotherKeyIsEscapeThenTheKey() {
        #expect(decode("\u{1B}q") == [.key(.escape), .key(.character("q"))])
    }

    @Test func utf8CharactersSplitAcrossReads() {
        #expect(
            decodeByteByByte("a漢😀é") == [
                .key(.character("a")), .key(.character("漢")), .key(.character("😀")), .key(.character("é")),
            ])
    }

    @Test func invalidBytesBecomeReplacementCharacters() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xFF, 0x61]) == [.key(.character("\u{FFFD}")), .key(.character("a"))])
        #expect(
            decoder.feed([0xE6, 0x61]) == [.key(.character("\u{FFFD}")), .key(.character("a"))],
            "a lead byte without its continuation")
        #expect(decoder.feed([0xE6, 0xBC]).isEmpty)
        #expect(decoder.flush() == [.key(.character("\u{FFFD}"))], "a character cut off by the end of input")
    }

    @Test func unknownSequencesAreDropped() {
        #expect(decode("\u{1B}[99~x\u{1B}[?1;2cy") == [.key(.character("x")), .key(.character("y"))])
    }
}
