import Glibc
import TestSupport
import Testing

/// The real `todo tui` in real terminals: two tmux sessions of different sizes on one daemon,
/// changes from a third shell, keys in one seen in the other, a daemon crash survived, and the
/// terminal restored on `q` and on signals.
@Suite(.blocking, .enabled(if: Tmux.executable != nil, "tmux is not installed"))
struct TmuxTests {
    /// `todo tui` in a shell that then prints, on one line, how it ended and the terminal
    /// modes that raw mode turns off: `EXIT=0 icrnl isig icanon echo`.
    private func tuiCommand(_ daemon: DaemonHarness) -> String {
        let modes = #"$(stty -a | tr -s ' ;' '\n\n' | grep -x -E -- '-?(icanon|echo|isig|icrnl)' | tr '\n' ' ')"#
        return
            "'\(Binaries.path("todo"))' --socket '\(daemon.socketPath)' tui; echo \"EXIT=$? \(modes)\"; exec sleep 600"
    }

    private func startTUI(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, daemon: DaemonHarness) throws {
        try tmux.newSession(
            name, columns: columns, rows: rows, environment: ["TODO_NO_AUTOSTART": "1"], command: tuiCommand(daemon))
        try tmux.waitForScreen(name, "the status line") { $0.contains { $0.hasPrefix(" connected v") } }
        #expect(try tmux.display(name, "#{alternate_on}") == "1", "the TUI runs on the alternate screen")
    }

    /// After the TUI ended: the shell's screen is back, the exit status printed, and the
    /// terminal in cooked mode with echo.
    private func expectRestored(_ tmux: Tmux, _ name: String, exitStatus: Int) throws {
        let screen = try tmux.waitForScreen(name, "the shell after the TUI") { $0.contains { $0.hasPrefix("EXIT=") } }
        let report = try #require(screen.first { $0.hasPrefix("EXIT=") }).split(separator: " ")
        #expect(report.first == "EXIT=\(exitStatus)", "the screen: \(screen.joined(separator: "\n"))")
        #expect(
            Set(report.dropFirst()) == ["icrnl", "isig", "icanon", "echo"], "cooked mode with echo again: \(report)")
        #expect(try tmux.display(name, "#{alternate_on}") == "0", "the alternate screen was left")
        #expect(!screen.contains { $0.contains("Items (") }, "nothing of the TUI is left on the shell's screen")
    }

    @Test func twoTerminalsFollowAThirdShellAndEachOther() throws {
        let daemon = try DaemonHarness()
        let tmux = try Tmux(directory: daemon.directory)
        try startTUI(tmux, "wide", columns: 120, rows: 40, daemon: daemon)
        try startTUI(tmux, "narrow", columns: 50, rows: 14, daemon: daemon)

        #expect(try daemon.todo("add", "from the third shell").status == 0)
        #expect(try daemon.todo("add", "second").status == 0)
        for session in ["wide", "narrow"] {
            try tmux.waitForScreen(session, "both items") { screen in
                screen.contains { $0.contains("1 [ ] from the third shell") }
                    && screen.contains { $0.contains("2 [ ] second") }
            }
        }
        #expect(
            try tmux.capture("wide").contains { $0.contains("│ Item 1") }, "the wide terminal shows the detail pane")
        #expect(!(try tmux.capture("narrow").contains { $0.contains("│") }), "the narrow one does not")

        try tmux.sendKeys("wide", "Space")
        try tmux.waitForScreen("narrow", "item 1 done, toggled in the other terminal") {
            $0.contains { $0.contains("1 [x] from the third shell") }
        }
        try tmux.sendKeys("narrow", "j", "d")
        try tmux.waitForScreen("narrow", "the question") { $0.contains { $0.contains("Delete item 2?") } }
        try tmux.sendKeys("narrow", "y")
        try tmux.waitForScreen("wide", "item 2 deleted in the other terminal") { screen in
            !screen.contains { $0.contains("2 [ ] second") }
                && screen.contains { $0.contains("1 [x] from the third shell") }
        }
        try tmux.sendKeys("wide", "a")
        try tmux.waitForScreen("wide", "the add form") { $0.contains { $0.contains("Add item") } }
        try tmux.type("wide", "typed in tmux")
        try tmux.sendKeys("wide", "Enter")
        try tmux.waitForScreen("narrow", "the added item") { $0.contains { $0.contains("3 [ ] typed in tmux") } }
        #expect(try daemon.todo("list").output == "1 [x] from the third shell\n3 [ ] typed in tmux\n1 open, 1 done\n")

        try tmux.sendKeys("wide", "q")
        try expectRestored(tmux, "wide", exitStatus: 0)
        try tmux.sendKeys("narrow", "q")
        try expectRestored(tmux, "narrow", exitStatus: 0)
    }

    @Test func signalsRestoreTheTerminal() throws {
        let daemon = try DaemonHarness()
        let tmux = try Tmux(directory: daemon.directory)
        for (session, signal, status) in [("term", SIGTERM, 143), ("int", SIGINT, 130), ("hup", SIGHUP, 129)] {
            try startTUI(tmux, session, columns: 80, rows: 24, daemon: daemon)
            try tmux.sendKeys(session, "a")
            try tmux.waitForScreen(session, "the add form, cursor shown") { $0.contains { $0.contains("Add item") } }
            kill(try tmux.childOfPane(session), signal)
            try expectRestored(tmux, session, exitStatus: status)
        }
    }

    @Test func noColorLeavesTheScreenWithoutAttributes() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.todo("add", "plain")
        let tmux = try Tmux(directory: daemon.directory)
        try tmux.newSession(
            "plain", columns: 80, rows: 24, environment: ["TODO_NO_AUTOSTART": "1", "NO_COLOR": "1"],
            command: tuiCommand(daemon))
        // `swift test` itself may run the tests with NO_COLOR set.
        try tmux.newSession(
            "styled", columns: 80, rows: 24, environment: ["TODO_NO_AUTOSTART": "1"],
            command: "env -u NO_COLOR " + tuiCommand(daemon))
        for session in ["plain", "styled"] {
            try tmux.waitForScreen(session, "the item") { $0.contains { $0.contains("> 1 [ ] plain") } }
        }
        // capture-pane -e writes each cell's attributes as escape sequences.
        let plain = try tmux.run(["capture-pane", "-p", "-e", "-t", "plain"])
        let styled = try tmux.run(["capture-pane", "-p", "-e", "-t", "styled"])
        #expect(!plain.contains("\u{1B}["), "no attribute at all with NO_COLOR")
        #expect(
            styled.contains("\u{1B}[7m") || styled.contains(";7m"),
            "reverse video otherwise: \(styled.debugDescription)")
        #expect(plain.contains("> 1 [ ] plain"), "the selection is still marked, in text")
    }

    /// A crash signal (SIGILL is what a Swift runtime trap raises, SIGSEGV a bad access)
    /// restores the terminal before the program dies. Sent from outside, as here, it ends the
    /// program by its default action; a real fault goes on to the Swift backtracer.
    @Test func crashSignalsRestoreTheTerminalFirst() throws {
        let daemon = try DaemonHarness()
        let tmux = try Tmux(directory: daemon.directory)
        for (session, signal) in [("ill", SIGILL), ("segv", SIGSEGV)] {
            try startTUI(tmux, session, columns: 80, rows: 24, daemon: daemon)
            kill(try tmux.childOfPane(session), signal)
            try expectRestored(tmux, session, exitStatus: 128 + Int(signal))
        }
    }

    /// The daemon is killed under two real `todo tui`s: both say they are reconnecting, a
    /// toggle typed meanwhile waits, and once the daemon is back both show the current list,
    /// the toggle applied once.
    @Test func aDaemonCrashShowsReconnectingThenTheCurrentList() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.todo("add", "survives")
        let tmux = try Tmux(directory: daemon.directory)
        try startTUI(tmux, "one", columns: 100, rows: 20, daemon: daemon)
        try startTUI(tmux, "two", columns: 60, rows: 14, daemon: daemon)
        try daemon.crash()
        for session in ["one", "two"] {
            try tmux.waitForScreen(session, "the reconnecting status line") {
                $0.contains { $0.hasPrefix(" reconnecting...") }
            }
        }
        try tmux.sendKeys("one", "Space")
        try daemon.start()
        #expect(try daemon.todo("add", "after the crash").status == 0)
        for session in ["one", "two"] {
            try tmux.waitForScreen(session, "the current list, connected") { screen in
                screen.contains { $0.contains("1 [x] survives") }
                    && screen.contains { $0.contains("2 [ ] after the crash") }
                    && screen.contains { $0.hasPrefix(" connected v") }
            }
        }
        #expect(
            try daemon.todo("log", "--json").output.components(separatedBy: #""name":"complete""#).count == 2,
            "the toggle was applied once")
        for session in ["one", "two"] {
            try tmux.sendKeys(session, "q")
            try expectRestored(tmux, session, exitStatus: 0)
        }
    }

    @Test func aResizedTerminalIsLaidOutAgain() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.todo("add", "resize me")
        let tmux = try Tmux(directory: daemon.directory)
        try startTUI(tmux, "resized", columns: 100, rows: 20, daemon: daemon)
        try tmux.waitForScreen("resized", "the detail pane") { $0.contains { $0.contains("│ Item 1") } }
        try tmux.run(["resize-window", "-t", "resized", "-x", "40", "-y", "10"])
        try tmux.waitForScreen("resized", "one pane and the status line, 40 columns") { screen in
            screen.contains { $0.contains("1 [ ] resize me") } && !screen.contains { $0.contains("│") }
                && screen.contains { $0.hasPrefix(" connected v1  1 open, 0 done") && $0.count <= 40 }
        }
        try tmux.sendKeys("resized", "q")
        try expectRestored(tmux, "resized", exitStatus: 0)
    }
}
