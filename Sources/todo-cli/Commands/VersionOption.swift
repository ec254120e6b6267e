import CommandLineKit

/// `--at VERSION`: the state version a read command shows (time travel).
enum VersionOption {
    /// The version given with `--at V` or `--at=V`, if any, and the other arguments. A version
    /// is a decimal integer of at least 0.
    static func extract(_ arguments: [String], command: String) throws(CLIError) -> (version: UInt64?, rest: [String]) {
        var version: UInt64?
        var rest: [String] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let value: String?
            if argument == "--at" {
                value = iterator.next()
                guard value != nil else { throw .usage("--at needs a version (see todo log)") }
            } else if argument.hasPrefix("--at=") {
                value = String(argument.dropFirst("--at=".count))
            } else {
                rest.append(argument)
                continue
            }
            guard version == nil else { throw .usage("\(command) takes --at once") }
            guard let value, !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let parsed = UInt64(value)
            else {
                throw .usage("--at needs a version, an integer of at least 0 (not \(value ?? ""))")
            }
            version = parsed
        }
        return (version, rest)
    }
}
