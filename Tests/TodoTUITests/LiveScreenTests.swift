import Glibc
import SyncClient
import TerminalUI
import TerminalUITesting
import TestSupport
import Testing
import TodoDomain

/// The screens of `todo tui` over a real `todod`, with keys typed into the UI loop.
@MainActor @Suite struct LiveScreenTests {
    @Test func changesFromAnotherShellShowAtOnceAndTheSelectionStaysOnItsItem() async throws {
        let daemon = try await DaemonHarness.started()
        for text in ["one", "two", "three", "four"] { _ = try await daemon.todo("add", text) }
        let front = try await LiveFront(daemon)
        try await front.waitFor("4 [ ] four")
        #expect(front.row(1)?.hasPrefix(">") == true, "the first row is selected at first")
        front.press(.character("j"), .down)
        try await front.waitForScreen("item 3 selected, its details shown") { _ in
            front.row(3)?.hasPrefix(">") == true && front.text.contains("│ Item 3")
        }

        #expect(try await daemon.todo("rm", "1").status == 0)
        try await front.waitForScreen("item 1 gone") { _ in front.row(1) == nil }
        #expect(front.row(3)?.hasPrefix(">") == true, "the selection stayed on item 3, now the second row")
        #expect(try await daemon.todo("add", "five").status == 0)
        try await front.waitFor("5 [ ] five")
        #expect(front.row(3)?.hasPrefix(">") == true)

        #expect(try await daemon.todo("rm", "3").status == 0)
        try await front.waitForScreen("item 3 gone, the row in its place selected") { _ in
            front.row(3) == nil && front.row(4)?.hasPrefix(">") == true
        }
        try await front.waitFor("│ Item 4")
        await front.quit()
    }

    @Test func keysChangeTheDaemonsState() async throws {
        let daemon = try await DaemonHarness.started()
        _ = try await daemon.todo("add", "buy milk")
        let front = try await LiveFront(daemon)
        try await front.waitFor("1 [ ] buy milk")

        front.press(.character(" "))
        try await front.waitFor("1 [x] buy milk")
        #expect(try await front.daemonList() == ["1 [x] buy milk"])
        front.press(.character(" "))
        try await front.waitFor("1 [ ] buy milk")

        front.press(.character("a"))
        try await front.waitFor("Add item")
        front.type("walk the 🐕")
        front.press(.enter)
        try await front.waitForScreen("the form closed and the item is listed") { _ in
            !front.text.contains("Add item") && front.text.contains("2 [ ] walk the 🐕")
        }

        front.press(.down, .character("e"))
        try await front.waitFor("Edit item 2")
        front.press(.control("w"))
        front.type("cat")
        front.press(.enter)
        try await front.waitFor("2 [ ] walk the cat")

        front.press(.character("d"))
        try await front.waitFor("Delete item 2?")
        front.press(.character("n"))
        try await front.waitForScreen("kept") { _ in !front.text.contains("Delete item") }
        front.press(.character("d"), .character("y"))
        try await front.waitForScreen("deleted") { _ in front.row(2) == nil }
        #expect(try await front.daemonList() == ["1 [ ] buy milk"])

        front.press(.character("u"))
        try await front.waitFor("2 [ ] walk the cat")
        try await front.waitFor(#"undid: remove "walk the cat""#)

        front.press(.character("f"))
        try await front.waitFor("Items (open)")
        front.press(.character("f"))
        try await front.waitForScreen("the done filter") { _ in
            front.text.contains("Items (done)") && front.text.contains("no done items")
        }
        await front.quit()
    }

    @Test func refusalsAreShownWhereTheyHappened() async throws {
        let daemon = try await DaemonHarness.started()
        let front = try await LiveFront(daemon)
        try await front.waitFor("no items - press a to add one")
        front.press(.character("u"))
        try await front.waitFor("nothing to undo")
        front.press(.character("a"), .enter)
        try await front.waitFor("the text is empty")
        #expect(front.text.contains("Add item"), "the form stays open")
        front.type("x")
        try await front.waitForScreen("the error goes once the text changes") { _ in
            !front.text.contains("the text is empty")
        }
        front.press(.escape)
        try await front.waitForScreen("closed") { _ in !front.text.contains("Add item") }
        #expect(try await front.daemonList() == [])
        await front.quit()
    }

    /// The daemon is killed under an attached front and a SyncClient subscriber: both show
    /// that they are reconnecting, a toggle made meanwhile waits, and once the daemon is back
    /// both show the current list, with the toggle applied exactly once.
    @Test func afterADaemonCrashTheFrontReconnectsAndTheListCatchesUp() async throws {
        let daemon = try await DaemonHarness.started()
        _ = try await daemon.todo("add", "a")
        let front = try await LiveFront(daemon)
        let subscriber = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "tui-tests/subscriber")
        defer { subscriber.close() }
        var states = subscriber.connectionStates().makeAsyncIterator()
        var lists = subscriber.subscribe(ListViewModel.self, params: .init(filter: .all)).makeAsyncIterator()
        #expect(try await lists.next()?.version == 1)
        try await front.waitForScreen("connected at version 1") { _ in
            front.lines.last?.hasPrefix(" connected v1 ") == true
        }

        try await daemon.crash()
        try await front.waitForScreen("reconnecting") { _ in front.lines.last?.hasPrefix(" reconnecting... ") == true }
        while let state = await states.next() {
            if case .reconnecting = state { break }
        }
        front.press(.character(" "))
        try await daemon.start()
        _ = try await daemon.todo("add", "b")
        try await front.waitFor("1 [x] a")
        try await front.waitFor("2 [ ] b")
        try await front.waitForScreen("connected again") { _ in front.lines.last?.hasPrefix(" connected v") == true }
        var latest = try #require(try await lists.next())
        while latest.version < 3 { latest = try #require(try await lists.next()) }
        #expect(latest.model?.items.map(\.text) == ["a", "b"])
        #expect(latest.model?.doneCount == 1)
        #expect(try await front.daemonList() == ["1 [x] a", "2 [ ] b"])
        let log = try await daemon.todo("log", "--json")
        #expect(
            log.output.components(separatedBy: #""name":"complete""#).count - 1 == 1,
            "the toggle was applied once: \(log.output)")
        await front.quit()
    }

    @Test func twoFrontsStayInStep() async throws {
        let daemon = try await DaemonHarness.started()
        _ = try await daemon.todo("add", "shared")
        let left = try await LiveFront(daemon)
        let right = try await LiveFront(daemon, size: Size(columns: 40, rows: 12))
        try await left.waitFor("1 [ ] shared")
        try await right.waitFor("1 [ ] shared")
        left.press(.character(" "))
        try await right.waitFor("1 [x] shared")
        right.press(.character("a"))
        right.type("from the right")
        right.press(.enter)
        try await left.waitFor("2 [ ] from the right")
        await left.quit()
        await right.quit()
    }
}
