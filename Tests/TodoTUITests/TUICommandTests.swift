import TestSupport
import Testing

/// `todo tui` refuses to start where it cannot work, with one clear line.
@Suite(.blocking) struct TUICommandTests {
    @Test func withoutATerminalItSaysSoAndExits2() throws {
        let daemon = try DaemonHarness()
        let result = try daemon.todo("tui")
        #expect(result.status == 2)
        #expect(result.error == "todo: tui: standard input is not a terminal; a full-screen program needs one\n")
        #expect(result.output.isEmpty, "nothing is drawn")
    }

    @Test func argumentsAreAUsageError() throws {
        let daemon = try DaemonHarness()
        let result = try daemon.todo("tui", "--open")
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("todo: tui takes no arguments\n"))
    }

    @Test func itIsInTheHelpAndTheCompletions() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.todo("--help").output.contains("  tui  "))
        #expect(try daemon.todo("tui", "--help").output.contains("f cycles the filter"))
        #expect(try daemon.todo("completions", "bash").output.contains(" tui "))
    }
}
