import TerminalUI
import TestSupport
import Testing

/// The history mode of `todo tui` over a real `todod`: each step shows the list the daemon
/// rebuilds at that version and the action journaled there, and changes nothing.
@MainActor @Suite struct HistoryLiveTests {
    @Test func steppingBackShowsEachVersionAndItsActionAndChangesNothing() async throws {
        let daemon = try await DaemonHarness.started(arguments: ["--snapshot-interval", "2"])
        for step in [["add", "a"], ["add", "b"], ["done", "1"]] { #expect(try await daemon.run(step).status == 0) }
        let front = try await LiveFront(daemon)
        try await front.waitFor("1 [x] a")
        front.press(.character("h"))
        try await front.waitForScreen("version 3 and its action") { _ in
            front.text.contains("History: version 3 of 3") && front.text.contains("3  complete #1")
        }
        front.press(.character("["))
        try await front.waitForScreen("version 2 rebuilt") { _ in
            front.text.contains("History: version 2 of 3") && front.text.contains("2  add \"b\"")
                && front.text.contains("1 [ ] a") && front.text.contains("2 [ ] b")
        }
        // Keys that would change the list do nothing here.
        front.press(.character(" "), .character("d"), .character("y"), .character("u"))
        front.press(.left, .character("["))
        try await front.waitForScreen("version 0, empty") { _ in
            front.text.contains("History: version 0 of 3") && front.text.contains("no items")
        }
        front.press(.end)
        try await front.waitForScreen("back at version 3") { _ in
            front.text.contains("History: version 3 of 3") && front.text.contains("1 [x] a")
        }
        front.press(.escape)
        try await front.waitForScreen("the main screen again") { _ in
            !front.text.contains("History:") && front.text.contains("h history")
        }
        #expect(try await front.daemonList() == ["1 [x] a", "2 [ ] b"], "nothing was changed")
        #expect(try await daemon.todo("status").output.contains("version: 3"))
        await front.quit()
    }
}
