/// A corpus of valid and invalid JSON texts generated from RFC 8259's grammar (section 2 to 7,
/// and 8.1 for UTF-8 as RFC 3629 defines it), rule by rule, each case with its verdict worked
/// out from the rule it tests, not from any parser:
///
/// - every number made of a sign (`""`, `-`, `+`), an integer part, a fraction and an exponent,
///   each well or badly formed (valid exactly when all four parts are);
/// - every single byte written raw inside a string, and a backslash before every printable
///   ASCII character; `\u` escapes (hex digits, lengths, surrogate pairs and lone halves);
/// - UTF-8 at the edges of every lead byte's range, overlong forms, surrogates, truncations;
/// - the literals and near misses; whitespace (the four allowed bytes and look-alikes) at every
///   gap of a document; arrays and objects, well and badly punctuated, comments, trailing
///   content, the nesting limit.
///
/// Values are also placed in every context a value can take (alone, in an array, as a member,
/// after another element), so a rule is tested wherever it applies.
public enum JSONGrammarCorpus {
    /// One case: a name saying what it tests, the text, and whether it is valid JSON.
    public struct Case: Sendable, CustomStringConvertible {
        /// What the case tests.
        public let name: String
        /// The text.
        public let bytes: [UInt8]
        /// Whether it is one RFC 8259 JSON text.
        public let isValid: Bool

        /// The name and the text (bytes outside printable ASCII in hex).
        public var description: String {
            let text = bytes.map {
                (0x20...0x7E).contains($0) ? String(UnicodeScalar($0)) : "<\(String($0, radix: 16))>"
            }.joined()
            return "\(name) (\(isValid ? "valid" : "invalid")): \(text.prefix(120))"
        }
    }

    /// The deepest nesting the readers under test accept (JSONSyntaxError.maximumDepth).
    public static let maximumDepth = 512

    /// Every case: the values in every context, then the whole-document cases.
    public static var cases: [Case] {
        values.flatMap(inContexts) + documents
    }

    /// The values alone (each once, as a whole document): a smaller set, for slower targets.
    public static var bareValues: [Case] {
        values
    }

    /// A value placed where values go; a valid value stays valid in each.
    private static func inContexts(_ value: Case) -> [Case] {
        let contexts: [(String, [UInt8], [UInt8])] = [
            ("alone", [], []), ("in an array", Array("[".utf8), Array("]".utf8)),
            ("as a member", Array(#"{"k":"#.utf8), Array("}".utf8)),
            ("after an element", Array("[0,".utf8), Array("]".utf8)),
            ("after a member", Array(#"{"a":0,"k":"#.utf8), Array("}".utf8)),
            ("in whitespace", Array(" \n\t\r".utf8), Array("\r\t\n ".utf8)),
        ]
        return contexts.map {
            Case(name: "\(value.name), \($0.0)", bytes: $0.1 + value.bytes + $0.2, isValid: value.isValid)
        }
    }

    /// Single values: numbers, strings, literals.
    private static var values: [Case] {
        numbers + rawStringBytes + escapes + unicodeEscapes + utf8 + literals
    }

    private static func text(_ name: String, _ json: String, _ isValid: Bool) -> Case {
        Case(name: name, bytes: Array(json.utf8), isValid: isValid)
    }

    private static var numbers: [Case] {
        let signs = [("", true), ("-", true), ("+", false)]
        let integers = [
            ("0", true), ("7", true), ("12", true), ("109", true), ("01", false), ("00", false), ("", false),
        ]
        let fractions = [("", true), (".5", true), (".05", true), (".50", true), (".", false), (".e", false)]
        let exponents = [
            ("", true), ("e1", true), ("E1", true), ("e+1", true), ("e-12", true), ("E+0", true), ("e", false),
            ("e+", false), ("E-", false),
            ("eE1", false), ("e1.5", false), ("e++1", false),
        ]
        var cases: [Case] = []
        for sign in signs {
            for integer in integers {
                for fraction in fractions {
                    for exponent in exponents {
                        let json = sign.0 + integer.0 + fraction.0 + exponent.0
                        guard !json.isEmpty else { continue }
                        cases.append(text("number \(json)", json, sign.1 && integer.1 && fraction.1 && exponent.1))
                    }
                }
            }
        }
        for json in [
            "0x1F", "1_000", ".5", "1.5.5", "--1", "-0-", "1e5e5", "Infinity", "-Infinity", "NaN", "0e", "- 1",
        ] {
            cases.append(text("number \(json)", json, false))
        }
        for json in [
            "-0", "-0.0e-0", "123456789012345678901234567890", "1E400", "1e-400", "9223372036854775808",
            "-9223372036854775809",
        ] {
            cases.append(text("number \(json)", json, true))
        }
        return cases
    }

    /// `"a` + one raw byte + `z"`: only unescaped characters (RFC 8259's `unescaped`, ASCII
    /// part) may stand alone; a byte above 0x7F alone is not UTF-8.
    private static var rawStringBytes: [Case] {
        (0...255).map { byte in
            let valid = (0x20...0x7F).contains(byte) && byte != 0x22 && byte != 0x5C
            return Case(
                name: "raw byte \(String(byte, radix: 16)) in a string",
                bytes: Array(#""a"#.utf8) + [UInt8(byte)] + Array(#"z""#.utf8), isValid: valid)
        }
    }

    /// A backslash before every printable ASCII character: eight of them are escapes.
    private static var escapes: [Case] {
        (0x20...0x7E).filter { $0 != UInt8(ascii: "u") }.map { byte in
            let valid = Array(#""\/bfnrt"#.utf8).contains(UInt8(byte))
            return Case(
                name: "escape \\\(Character(UnicodeScalar(UInt8(byte))))",
                bytes: Array(#""a\"#.utf8) + [UInt8(byte)] + Array(#"z""#.utf8), isValid: valid)
        }
    }

    private static var unicodeEscapes: [Case] {
        let valid = [
            #"\u0041"#, #"\u00e9"#, #"\u00E9"#, #"\uabcd"#, #"\uABCD"#, #"\u0000"#, #"\u001F"#, #"\uD7FF"#, #"\uE000"#,
            #"\uFFFF"#,
            #"\uD800\uDC00"#, #"\uDBFF\uDFFF"#, #"\ud83d\ude00"#, #"\uD834\uDD1Ex"#,
        ]
        let invalid = [
            #"\u"#, #"\u1"#, #"\u12"#, #"\u123"#, #"\u12G4"#, #"\uXYZW"#, #"\U0041"#, #"\u 041"#, #"\u-041"#,
            #"\uD800"#, #"\uDBFF"#, #"\uDC00"#, #"\uDFFF"#, #"\uD800\u0041"#, #"\uD800x"#, #"\uDC00\uD800"#,
            #"\uD800\uD800"#,
            #"\uD800\uDBFF"#, #"\uD800\\uDC00"#, #"\uD800\"#, #"\uD800\u"#,
        ]
        return valid.map { text("escape \($0)", "\"" + $0 + "\"", true) }
            + invalid.map { text("escape \($0)", "\"" + $0 + "\"", false) }
    }

    /// UTF-8 inside a string, at the edges of each lead byte's range (RFC 3629 section 4).
    private static var utf8: [Case] {
        let valid: [[UInt8]] = [
            [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE0, 0xBF, 0xBF], [0xE1, 0x80, 0x80], [0xEC, 0xBF, 0xBF],
            [0xED, 0x80, 0x80],
            [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],
            [0xF0, 0xBF, 0xBF, 0xBF],
            [0xF1, 0x80, 0x80, 0x80], [0xF3, 0xBF, 0xBF, 0xBF], [0xF4, 0x80, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xEF, 0xBB, 0xBF],
        ]
        let invalid: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xC2, 0xC0], [0xDF, 0xC0],
            [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
            [0xE1, 0x80], [0xE1, 0x41, 0x80], [0xE1, 0x80, 0x41], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
            [0xF0, 0x80, 0x80, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF4, 0xBF, 0xBF, 0xBF],
            [0xF5, 0x80, 0x80, 0x80],
            [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80],
        ]
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16) }.joined(separator: " ") }
        let quote = UInt8(ascii: "\"")
        return valid.map { Case(name: "UTF-8 \(hex($0))", bytes: [quote] + $0 + [quote], isValid: true) }
            + invalid.map { Case(name: "UTF-8 \(hex($0))", bytes: [quote] + $0 + [quote], isValid: false) }
    }

    private static var literals: [Case] {
        ["true", "false", "null"].map { text("literal \($0)", $0, true) }
            + [
                "tru", "fals", "nul", "t", "True", "FALSE", "Null", "nil", "undefined", "truee", "nulll", "tr ue",
                "n\u{0}ull",
            ].map { text("literal \($0)", $0, false) }
    }

    /// Cases about a whole document: structure, whitespace, what may surround the value, depth.
    private static var documents: [Case] {
        let valid = [
            "[]", "{}", "[[]]", "[{}]", #"{"a":[]}"#, #"{"a":{}}"#, "[1,2,3]", #"{"a":1,"b":2}"#, #"{"a":1,"a":2}"#,
            #"{"":0}"#,
            #"[[1,[2,[3]]],{"a":{"b":[{}]}}]"#, #"{"a b":1,"\u0061":2,"é":3}"#, " [ 1 , { \"a\" : 2 } ] ",
        ]
        let invalid = [
            "", " ", "\n", "[", "]", "{", "}", "[1", #"{"a":1"#, "[1,]", #"["",]"#, "[[],]", "[,1]", "[1,,2]", "[,]",
            "[1 2]", "[1:2]",
            #"{"a":1,}"#, #"{"a":{},}"#, #"{,"a":1}"#, #"{"a" 1}"#, #"{"a"::1}"#, #"{"a":}"#, #"{"a"}"#, "{a:1}",
            "{1:1}", "{'a':1}",
            "{null:1}", #"{"a":1 "b":2}"#, #"{"a":1;"b":2}"#, #"{"a"=1}"#, "[1}", #"{"a":1]"#, "[]]", "[][]", "{}{}",
            "1 2", "[1]x", "[1],",
            "/*c*/[]", "[]/*c*/", "[1/*c*/]", "// c\n[]", "[]#", "['a']", "[\"a\"\"b\"]", "\u{FEFF}[]", "[é]",
            "[\\u0041]", "[1]\u{0}",
        ]
        var cases = valid.map { text("document \($0)", $0, true) } + invalid.map { text("document \($0)", $0, false) }
        // Whitespace: each allowed byte, and look-alikes, in every gap of one document.
        let gaps = [#"[1,{"a":2}]"#, #"{"k":[true]}"#]
        let spaces: [(String, String, Bool)] = [
            ("space", " ", true), ("tab", "\t", true), ("line feed", "\n", true), ("carriage return", "\r", true),
            ("vertical tab", "\u{0B}", false),
            ("form feed", "\u{0C}", false), ("NUL", "\u{0}", false), ("no-break space", "\u{A0}", false),
            ("line separator", "\u{2028}", false),
            ("byte order mark", "\u{FEFF}", false),
        ]
        for document in gaps {
            let characters = Array(document)
            for gap in 0...characters.count {
                for space in spaces {
                    let json = String(characters[..<gap]) + space.1 + String(characters[gap...])
                    // A gap inside a string is part of the string: allowed there except control
                    // characters. Nothing may split a literal.
                    let inString = characters[..<gap].filter { $0 == "\"" }.count % 2 == 1
                    let inLiteral =
                        gap > 0 && gap < characters.count && characters[gap - 1].isLetter && characters[gap].isLetter
                    let controls = ["tab", "line feed", "carriage return", "vertical tab", "form feed", "NUL"]
                    let valid = inString ? !controls.contains(space.0) : space.2 && !inLiteral
                    cases.append(text("\(space.0) at gap \(gap) of \(document)", json, valid))
                }
            }
        }
        for depth in [1, 2, 64, 65, 100, maximumDepth - 1, maximumDepth] {
            cases.append(
                text(
                    "\(depth) nested arrays",
                    String(repeating: "[", count: depth) + String(repeating: "]", count: depth), true))
            cases.append(
                text(
                    "\(depth) nested objects",
                    String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1),
                    true))
        }
        // Arrays and objects in turn, deeper than one word of the scanner's bracket stack, and
        // with the bracket of the wrong kind closing somewhere deep.
        for depth in [63, 64, 65, 130, 300, maximumDepth] {
            let opening = (0..<depth).map { $0 % 2 == 0 ? "[" : #"{"a":"# }.joined()
            let closing = (0..<depth).reversed().map { $0 % 2 == 0 ? "]" : "}" }.joined()
            cases.append(text("\(depth) arrays and objects in turn", opening + "1" + closing, true))
            var wrong = Array(closing)
            wrong[depth / 3] = wrong[depth / 3] == "]" ? "}" : "]"
            cases.append(
                text(
                    "\(depth) arrays and objects in turn, one closed by the wrong bracket",
                    opening + "1" + String(wrong), false))
        }
        for depth in [maximumDepth + 1, 10_000, 100_000] {
            cases.append(
                text(
                    "\(depth) nested arrays",
                    String(repeating: "[", count: depth) + String(repeating: "]", count: depth), false))
            cases.append(text("\(depth) open arrays", String(repeating: "[", count: depth), false))
            cases.append(
                text(
                    "\(depth) nested objects",
                    String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1),
                    false))
        }
        return cases
    }
}
