import CommandLineKit
import Testing

/// A command's own options parsed into typed values.
@Suite struct CommandArgumentsTests {
    @Test func flagsValuesAndPositionalWordsInAnyOrder() throws {
        let parsed = try CommandArguments(
            ["7", "--json", "--at=12", "--column", "doing", "-1", "--", "--literal"], command: "list",
            flags: ["--json", "--quiet"], options: ["--at": "V", "--column": "NAME"])
        #expect(parsed.positional == ["7", "-1", "--literal"])
        #expect(parsed.isSet("--json") && !parsed.isSet("--quiet"))
        #expect(try parsed.integer(of: "--at", in: 0...100) == 12)
        #expect(parsed.value(of: "--column") == "doing")
        #expect(try parsed.integer(of: "--missing") == nil)
    }

    @Test(arguments: [
        (["--loud"], "unknown option --loud for list"),
        (["--json=yes"], "--json takes no value"),
        (["--at"], "--at needs V"),
        (["--at", "1", "--at", "2"], "list takes --at once"),
    ])
    func wrongWordsAreUsageErrors(arguments: [String], message: String) {
        #expect {
            try CommandArguments(arguments, command: "list", flags: ["--json"], options: ["--at": "V"])
        } throws: { error in
            guard case .usage(let text) = error as? CLIError else { return false }
            return text == message
        }
    }

    @Test func anIntegerOutOfRangeOrCountWrongSaysSo() throws {
        let parsed = try CommandArguments(["--at", "x", "a"], command: "list", options: ["--at": "V"])
        #expect(throws: CLIError.self) { try parsed.integer(of: "--at", in: 0...9) }
        do {
            _ = try parsed.integer(of: "--at", in: 0...Int.max)
            Issue.record("x is no version")
        } catch {
            #expect(error.message == "--at needs a whole number of at least 0, not x")
        }
        #expect(throws: CLIError.self) { try parsed.exactly(2, "A B") }
        let signed = try CommandArguments(
            ["--at", "+1", "--to=-2"], command: "list", options: ["--at": "V", "--to": "V"])
        #expect(throws: CLIError.self) { try signed.integer(of: "--at") }
        #expect(try signed.integer(of: "--to") == -2)
        #expect(try parsed.exactly(1, "A") == ["a"])
    }
}
