import CommandLineKit
import TodoDomain

/// The parsers of `todo`'s own arguments.
extension Arguments {
    /// Item numbers: one or more positive integers.
    static func numbers(_ arguments: [String], command: String) throws(CLIError) -> [Int] {
        try positiveNumbers(arguments, command: command, noun: "item number")
    }

    /// The filter chosen by `--open` / `--done` (default all), and the remaining flags.
    static func filter(_ arguments: [String], command: String, allowing flags: Set<String> = []) throws(CLIError) -> (
        ListFilter, Set<String>
    ) {
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
