/// Small parsers for a command's arguments; each failure is a `CLIError.usage` naming the
/// command.
public enum Arguments {
    /// Positive integers, one or more; `noun` names one in messages (`item number`).
    public static func positiveNumbers(_ arguments: [String], command: String, noun: String) throws(CLIError) -> [Int] {
        guard !arguments.isEmpty else { throw .usage("\(command) needs at least one \(noun)") }
        var numbers: [Int] = []
        for argument in arguments {
            guard let number = Int(argument), number > 0 else { throw .usage("\(argument) is not an \(noun)") }
            numbers.append(number)
        }
        return numbers
    }

    /// Words joined into one text. Words after `--` are text even if they start with `-`.
    public static func text(_ arguments: [String], command: String) throws(CLIError) -> String {
        var words: [String] = []
        var literal = false
        for argument in arguments {
            if !literal && argument == "--" {
                literal = true
            } else if !literal && argument.hasPrefix("-") && argument.count > 1 {
                throw .usage("unknown option \(argument) for \(command) (put text after -- if it starts with -)")
            } else {
                words.append(argument)
            }
        }
        guard !words.isEmpty else { throw .usage("\(command) needs some text") }
        return words.joined(separator: " ")
    }
}
