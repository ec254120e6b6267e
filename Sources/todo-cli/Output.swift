import CommandLineKit

/// Unbuffered writes to standard output and standard error, in `todo`'s words.
enum Output {
    /// Writes `text` to standard output.
    static func out(_ text: String) {
        StandardStream.output.write(text)
    }

    /// Writes `todo: message` and a newline to standard error.
    static func error(_ message: String) {
        TodoCLI.tool.printError(message)
    }
}
