extension Subprocess {
    /// Runs `executable arguments` to its end (at most `timeout` seconds) and returns its
    /// standard output; throws with its standard error when it exits with another status than 0.
    /// Its output goes to files in `directory`, removed afterwards.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: String, timeout: Double = 120)
        throws(BenchError) -> String
    {
        let child = try Subprocess(executable, arguments, outputDirectory: directory)
        defer { child.removeOutputFiles() }
        let code = try child.wait(timeout: timeout)
        guard code == 0 else {
            let command = ([child.name] + arguments).joined(separator: " ")
            throw .process(
                name: child.name, reason: "`\(command)` exited with \(code): \(child.standardError.suffix(1500))")
        }
        return child.standardOutput
    }
}
