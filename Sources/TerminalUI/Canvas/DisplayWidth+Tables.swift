extension DisplayWidth {
    /// Scalars two cells wide that are not emoji with emoji presentation (those are found
    /// through `Unicode.Scalar.Properties.isEmojiPresentation`): East Asian Wide and Fullwidth
    /// ranges, sorted. These are the ranges glibc's `wcwidth` reports as 2 in C.UTF-8, with
    /// planes 2 and 3 whole, as Unicode's East Asian Width defaults them.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, // Hangul Jamo initial consonants
        0x2329...0x232A, // angle brackets
        0x2E80...0x2E99, 0x2E9B...0x2EF3, // CJK radicals supplement
        0x2F00...0x2FD5, // Kangxi radicals
        0x2FF0...0x2FFB, // ideographic description characters
        0x3000...0x3029, 0x302E...0x303E, // CJK symbols and punctuation
        0x3041...0x3096, 0x309B...0x30FF, // Hiragana, Katakana
        // Bopomofo, Hangul compatibility, Kanbun, strokes
        0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E3, 0x31F0...0x321E,
        0x3220...0xA48C, // enclosed CJK, CJK ideographs (extension A, unified), Yi syllables
        0xA490...0xA4C6, // Yi radicals
        0xA960...0xA97C, // Hangul Jamo extended A
        0xAC00...0xD7A3, // Hangul syllables
        0xF900...0xFA6D, 0xFA70...0xFAD9, // CJK compatibility ideographs
        0xFE10...0xFE19, // vertical forms
        0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, // CJK compatibility forms, small forms
        0xFF01...0xFF60, 0xFFE0...0xFFE6, // fullwidth forms
        0x16FE0...0x16FE3, 0x16FF0...0x16FF1, // ideographic symbols
        0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08, // Tangut
        0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE, // Kana extended B
        0x1B000...0x1B122, 0x1B150...0x1B152, 0x1B164...0x1B167, 0x1B170...0x1B2FB, // Kana supplement, Nushu
        0x1F200...0x1F200, 0x1F202...0x1F202, 0x1F210...0x1F219, 0x1F21B...0x1F22E, // enclosed ideographic supplement
        0x1F230...0x1F231, 0x1F237...0x1F237, 0x1F23B...0x1F23B, 0x1F240...0x1F248, 0x1F260...0x1F265,
        0x20000...0x2FFFD, // plane 2, CJK extensions B–F and I: Wide, assigned or not
        0x30000...0x3FFFD, // plane 3, CJK extensions G and H: Wide, assigned or not
    ]
}
