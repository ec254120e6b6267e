import Glibc
import TerminalUI
import Testing

@Suite struct DisplayWidthTests {
    @Test func asciiAndLatinTakeOneCell() {
        #expect(DisplayWidth.of("a") == 1)
        #expect(DisplayWidth.of("buy milk") == 8)
        #expect(DisplayWidth.of("ß") == 1)
    }

    @Test func eastAsianWideAndFullwidthTakeTwo() {
        for character: Character in ["漢", "字", "ひ", "カ", "한", "Ａ", "、", "𠀀"] {
            #expect(DisplayWidth.of(character) == 2, "\(character)")
        }
        #expect(DisplayWidth.of("日本語abc") == 9)
    }

    @Test func emojiTakeTwoWhateverTheirSequence() {
        let emoji: [Character] = [
            "😀", // emoji presentation
            "❤️", // text-default heart with VS16
            "👍🏽", // skin tone modifier
            "👨‍👩‍👧", // ZWJ sequence
            "🇫🇷", // flag: two regional indicators
            "1️⃣", // keycap
        ]
        for character in emoji {
            #expect(DisplayWidth.of(character) == 2, "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(DisplayWidth.of("❤") == 1, "text presentation without VS16")
        #expect(DisplayWidth.of("\u{1F1EB}") == 1, "a lone regional indicator")
    }

    @Test func combiningMarksAddNothing() {
        #expect(DisplayWidth.of("e\u{0301}") == 1)
        #expect(DisplayWidth.of("a\u{0301}\u{0302}\u{0323}") == 1)
        #expect(DisplayWidth.of("Zoe\u{0308}") == 3)
        #expect(DisplayWidth.of("각") == 2, "a precomposed syllable")
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2, "a syllable of conjoining jamo is one wide cluster")
    }

    @Test func clustersThatCannotStandAloneGetABase() {
        let mark = DisplayWidth.glyph("\u{0301}")
        #expect(mark.width == 1 && mark.character == "\u{25CC}\u{0301}")
        let vowel = DisplayWidth.glyph("\u{1161}")
        #expect(vowel.width == 2 && vowel.character == "\u{115F}\u{1161}")
    }

    @Test func invisibleFormatCharactersTakeNoCellAndControlsAreReplaced() {
        #expect(DisplayWidth.of("\u{200B}") == 0)
        #expect(DisplayWidth.of("\u{FEFF}") == 0)
        #expect(DisplayWidth.of("\u{AD}") == 1, "the soft hyphen is shown")
        for control: Character in ["\u{1B}", "\u{07}", "\u{7F}", "\u{9B}", "\r\n"] {
            #expect(DisplayWidth.glyph(control) == DisplayWidth.Glyph(character: "\u{FFFD}", width: 1))
        }
    }

    /// Every assigned scalar glibc knows gets the width `wcwidth` gives it in C.UTF-8, except
    /// where this library shows a zero-width scalar on a base of its own (a lone combining mark
    /// on U+25CC: 1 cell; a lone Hangul vowel or final on the fillers: 2 cells).
    @Test func agreesWithGlibcWcwidthOnEveryScalar() throws {
        let previous = String(cString: setlocale(LC_CTYPE, nil))
        #expect(setlocale(LC_CTYPE, "C.UTF-8") != nil)
        defer { setlocale(LC_CTYPE, previous) }
        typealias WidthFunction = @convention(c) (Int32) -> Int32
        let wcwidth = unsafeBitCast(try #require(dlsym(nil, "wcwidth")), to: WidthFunction.self)
        var disagreements: [String] = []
        var compared = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            let theirs = Int(wcwidth(Int32(bitPattern: value)))
            guard theirs >= 0, ![.unassigned, .control, .privateUse, .surrogate].contains(category) else { continue }
            let hangulVowelOrFinal = (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value)
            let expected = hangulVowelOrFinal ? 2 : (theirs == 0 && category != .format ? 1 : theirs)
            compared += 1
            if DisplayWidth.of(Character(scalar)) != expected { disagreements.append(String(value, radix: 16)) }
        }
        #expect(compared > 100_000)
        #expect(disagreements.isEmpty, "U+\(disagreements.prefix(20).joined(separator: ", U+"))")
    }
}
