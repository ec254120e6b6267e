import CommandLineKit
import TodoDomain

/// The parsers of `todo`'s own arguments.
extension Arguments {
    /// Item numbers: one or more positive integers.
    static func numbers(_ arguments: [String], command: String) throws(CLIError) -> [Int] {
        try positiveNumbers(arguments, command: command, noun: "item number")
    }

    /// The flags of a list filter, for `CommandArguments`.
    static let filterFlags: Set<String> = ["--open", "--done"]

    /// The filter chosen by `--open` / `--done` in `parsed` (default all).
    static func filter(_ parsed: CommandArguments, command: String) throws(CLIError) -> ListFilter {
        switch (parsed.isSet("--open"), parsed.isSet("--done")) {
        case (true, true): throw .usage("\(command) takes one of --open and --done, not both")
        case (true, false): return .open
        case (false, true): return .done
        case (false, false): return .all
        }
    }

    /// The words of `parsed` that are not options, which `command` takes none of.
    static func none(_ parsed: CommandArguments, command: String) throws(CLIError) {
        if let first = parsed.positional.first { throw .usage("unexpected argument \(first) for \(command)") }
    }
}
