import TodoDomain

/// Small parsers shared by the commands.
enum Arguments {
    /// Item numbers: one or more positive integers.
    static func numbers(_ arguments: [String], command: String) throws(CLIError) -> [Int] {
        guard !arguments.isEmpty else { throw .usage("\(command) needs at least one item number") }
        var numbers: [Int] = []
        for argument in arguments {
            guard let number = Int(argument), number > 0 else { throw .usage("\(argument) is not an item number") }
            numbers.append(number)
        }
        return numbers
    }

    /// Words joined into one text. Words after `--` are text even if they start with `-`.
    static func text(_ arguments: [String], command: String) throws(CLIError) -> String {
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

    /// The filter chosen by `--open` / `--done` (default all), and the remaining flags.
    static func filter(_ arguments: [String], command: String, allowing flags: Set<String> = []) throws(CLIError) -> (ListFilter, Set<String>) {
        var filter = ListFilter.all
        var seen: Set<String> = []
        for argument in arguments {
            switch argument {
            case "--open", "--done":
                guard filter == .all else { throw .usage("\(command) takes one of --open and --done, not both") }
                filter = argument == "--open" ? .open : .done
            case _ where flags.contains(argument): seen.insert(argument)
            default: throw .usage("unexpected argument \(argument) for \(command)")
            }
        }
        return (filter, seen)
    }
}
