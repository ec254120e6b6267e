/// A command's words parsed against the options it takes: flags (`--json`), options with a
/// value (`--at V`, also `--at=V`) and the positional words left, so a command reads typed
/// values instead of re-parsing `[String]`. Words after `--` are positional even if they start
/// with `-`; so is a negative number (`-1`). Any other word starting with `-` is a usage error.
public struct CommandArguments: Sendable {
    /// The words that are not options, in order.
    public let positional: [String]
    private let flags: Set<String>
    private let values: [String: String]
    private let command: String

    /// Parses `arguments` of `command`: `flags` take no value, `options` maps each option with
    /// a value to its placeholder (`["--at": "V"]`), which usage errors name.
    public init(
        _ arguments: [String], command: String, flags: Set<String> = [], options: [String: String] = [:]
    ) throws(CLIError) {
        var positional: [String] = []
        var seenFlags: Set<String> = []
        var values: [String: String] = [:]
        var words = arguments[...]
        var literal = false
        while let word = words.popFirst() {
            if literal || !word.hasPrefix("-") || word == "-" || Int(word) != nil {
                positional.append(word)
                continue
            }
            if word == "--" {
                literal = true
                continue
            }
            let (name, attached) = Self.split(word)
            if flags.contains(name) {
                guard attached == nil else { throw .usage("\(name) takes no value") }
                seenFlags.insert(name)
            } else if let placeholder = options[name] {
                guard let value = attached ?? words.popFirst(), !value.isEmpty else {
                    throw .usage("\(name) needs \(placeholder)")
                }
                guard values[name] == nil else { throw .usage("\(command) takes \(name) once") }
                values[name] = value
            } else {
                throw .usage("unknown option \(word) for \(command)")
            }
        }
        self.positional = positional
        self.flags = seenFlags
        self.values = values
        self.command = command
    }

    /// Whether the flag `name` was given.
    public func isSet(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The value given for the option `name`, nil if it was not given.
    public func value(of name: String) -> String? {
        values[name]
    }

    /// The value of the option `name` as a decimal integer in `range` (digits, after a `-` for a
    /// negative one: not `+1`), nil if it was not given.
    public func integer(of name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(CLIError) -> Int? {
        guard let text = values[name] else { return nil }
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text),
            range.contains(number)
        else {
            let wanted =
                range.upperBound < Int.max
                ? "a number from \(range.lowerBound) to \(range.upperBound)"
                : range.lowerBound > Int.min ? "a whole number of at least \(range.lowerBound)" : "a whole number"
            throw .usage("\(name) needs \(wanted), not \(text)")
        }
        return number
    }

    /// The positional words, checked to be `count` of them (`what` says which, for the message).
    public func exactly(_ count: Int, _ what: String) throws(CLIError) -> [String] {
        guard positional.count == count else { throw .usage("\(command) needs \(what)") }
        return positional
    }

    /// The positional words joined by spaces into one text, which must not be empty.
    public func text() throws(CLIError) -> String {
        guard !positional.isEmpty else { throw .usage("\(command) needs some text") }
        return positional.joined(separator: " ")
    }

    /// `--name=value` as the name and the value; a word without `=` as itself and nil.
    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
