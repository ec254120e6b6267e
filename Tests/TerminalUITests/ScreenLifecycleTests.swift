import TerminalUI
import TerminalUITesting
import Testing

@MainActor @Suite struct ScreenLifecycleTests {
    let journal = Journal()
    let terminal = FakeTerminal(size: Size(columns: 30, rows: 8))

    @Test func theRootLoadsOnceAppearsAndSubscribes() async throws {
        let root = LoggingScreen("root", journal: journal)
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        #expect(root.probe.opened == 0 && !root.isLoaded)
        app.start()
        #expect(root.isVisible && root.isConnected)
        try await waitUntil("the root subscribed") { root.probe.opened == 1 }
        root.probe.send("one")
        try await waitUntil("the model arrived") { root.rootView.model == "root: one" }
        app.renderIfNeeded()
        #expect(terminal.lines[0] == "root: one")
        #expect(terminal.isAlternateScreen == false, "the app does not own the terminal session")
    }

    @Test func lifecycleHooksRunInOrder() {
        let root = LoggingScreen("root", journal: journal)
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        #expect(
            journal.take() == [
                "root setupInteraction", "root didLoad", "root didResize 30x8", "root willAppear",
                "root didAppear connected=true",
            ])
        app.navigator.stop()
        #expect(journal.take() == ["root willDisappear", "root didDisappear connected=false"])
    }

    @Test func pushingHidesAndDisconnectsTheScreenBelowAndPoppingBringsItBack() async throws {
        let root = LoggingScreen("root", journal: journal)
        let pushed = LoggingScreen("details", journal: journal)
        root.routes = [.show("details"): .push { _ in pushed }, .hide("details"): .pop]
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        try await waitUntil("root subscribed") { root.probe.open == 1 }
        _ = journal.take()

        try root.show("details")
        #expect(
            journal.take() == [
                "root willDisappear", "root didDisappear connected=false",
                "details setupInteraction", "details didLoad", "details didResize 30x8", "details willAppear",
                "details didAppear connected=true",
            ])
        #expect(app.navigator.routes == ["LoggingScreen", "details"])
        try await waitUntil("root unsubscribed, details subscribed") { root.probe.open == 0 && pushed.probe.open == 1 }
        app.renderIfNeeded()
        #expect(terminal.lines[0] == "details")

        try pushed.hide("details")
        #expect(
            journal.take() == [
                "details willDisappear", "details didDisappear connected=false", "root didResize 30x8",
                "root willAppear", "root didAppear connected=true",
            ])
        try await waitUntil("root subscribed again, details gone") {
            root.probe.opened == 2 && root.probe.open == 1 && pushed.probe.open == 0
        }
        #expect(app.navigator.routes == ["LoggingScreen"])
        app.renderIfNeeded()
        #expect(terminal.lines[0] == "root")
    }

    @Test func aModalScreenLeavesTheScreenBelowVisibleAndConnectedAndTakesTheKeys() async throws {
        let store = RecordingStore()
        let root = LoggingScreen("root", store: store, journal: journal)
        let modal = LoggingScreen("modal", store: store, journal: journal)
        modal.rootView.preferred = Size(columns: 10, rows: 3)
        root.routes = [.show("ask"): .presentModally { _ in modal }, .hide("ask"): .dismissModally]
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        try root.show("ask")
        #expect(root.isVisible && root.isConnected && modal.isVisible)
        try await waitUntil("both subscribed") { root.probe.open == 1 && modal.probe.open == 1 }
        app.renderIfNeeded()
        #expect(terminal.lines[0] == "root")
        #expect(terminal.lines[2] == "          modal", "centred: (30 - 10) / 2 columns, (8 - 3) / 2 rows in")

        app.handle(.key(.character("x")))
        try await waitUntil("the modal dispatched") { store.actions == ["x from modal"] }
        root.probe.send("live")
        try await waitUntil("the root still updates under the modal") { root.rootView.model == "root: live" }

        try modal.hide("ask")
        #expect(!modal.isVisible && root.isVisible)
        try await waitUntil("the modal unsubscribed") { modal.probe.open == 0 && root.probe.open == 1 }
        app.handle(.key(.character("x")))
        try await waitUntil("the root dispatched") { store.actions == ["x from modal", "x from root"] }
    }

    @Test func unknownRoutesAreErrorsNotCrashes() throws {
        let root = LoggingScreen("root", journal: journal)
        root.routes = [
            .show("help"): .presentModally { _ in LoggingScreen("help", journal: Journal()) }, .hide("help"): .pop,
        ]
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        #expect(throws: NavigationError.unknownRoute(.show("nowhere"), visible: ["LoggingScreen"])) {
            try root.show("nowhere")
        }
        root.routes[.show("needs a number")] = .presentModally { [journal] context in
            (context as? Int).map { LoggingScreen("item \($0)", journal: journal) }
        }
        #expect(throws: NavigationError.noScreen("needs a number")) {
            try root.show("needs a number", context: "not a number")
        }
        #expect(throws: NavigationError.notShown("help")) { try root.hide("help") }
        #expect(throws: NavigationError.notShown("LoggingScreen"), "the root cannot be hidden") {
            try root.hide("LoggingScreen")
        }
        try root.show("help")
        #expect(throws: NavigationError.alreadyShown("help")) { try root.show("help") }
        #expect(throws: NavigationError.instructionMismatch(.hide("help")), "pop of a modal") { try root.hide("help") }
        root.routes[.show("one way")] = .push { [journal] _ in LoggingScreen("one way", journal: journal) }
        try root.show("one way")
        #expect(
            throws: NavigationError.unknownRoute(.hide("one way"), visible: ["one way"]),
            "no screen declares how to pop it"
        ) {
            try root.hide("one way")
        }
        let loose = LoggingScreen("loose", journal: journal)
        #expect(throws: NavigationError.notNavigating("help")) { try loose.show("help") }
        #expect(
            String(describing: NavigationError.unknownRoute(.show("nowhere"), visible: ["list"]))
                == #"no screen declares how to show "nowhere" (visible: list)"#)
        #expect(app.navigator.routes == ["LoggingScreen", "help", "one way"])
    }

    @Test func aScreenThatDoesNotConnectWhenVisibleLeavesItToItsOwner() async throws {
        let root = LoggingScreen("root", journal: journal)
        root.shouldConnectWhenVisible = false
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        #expect(root.isVisible && !root.isConnected)
        root.connect()
        try await waitUntil("connected by hand") { root.probe.open == 1 }
        app.navigator.stop()
        #expect(root.isConnected, "hiding does not disconnect it either")
        root.disconnect()
        try await waitUntil("disconnected by hand") { root.probe.open == 0 }
    }

    @Test func resubscribingClosesAndReopensTheFeeds() async throws {
        let root = LoggingScreen("root", journal: journal)
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        try await waitUntil("subscribed") { root.probe.open == 1 }
        root.resubscribe()
        try await waitUntil("subscribed again") { root.probe.opened == 2 && root.probe.closed == 1 }
    }

    @Test func aFailingFeedReportsItsFailure() async throws {
        struct Gone: Error {}
        let root = LoggingScreen("root", journal: journal)
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        try await waitUntil("subscribed") { root.probe.open == 1 }
        root.probe.fail(Gone())
        try await waitUntil("the failure was shown") { root.rootView.model == "root failed" }
    }

    @Test func refusedDispatchesReachTheRoot() async throws {
        let store = RecordingStore()
        let root = LoggingScreen("root", store: store, journal: journal)
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        root.dispatch("refuse")
        try await waitUntil("the refusal arrived") { root.failures == ["Refused()"] }
    }

    @Test func resizeLaysOutAgainAndRedrawsInFull() {
        let root = LoggingScreen("root", journal: journal)
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        _ = journal.take()
        terminal.resize(to: Size(columns: 12, rows: 4))
        app.handle(.resize(Size(columns: 12, rows: 4)))
        #expect(journal.take() == ["root didResize 12x4"])
        #expect(root.rootView.canvas.size == Size(columns: 12, rows: 4))
        app.renderIfNeeded()
        #expect(terminal.lines == ["root", "", "", ""])
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func focusChangesReachVisibleScreens() {
        let root = LoggingScreen("root", journal: journal)
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        app.start()
        _ = journal.take()
        app.handle(.focus(false))
        app.handle(.focus(true))
        #expect(journal.take() == ["root focus false", "root focus true"])
    }

    @Test func ctrlCAndTheEndOfInputQuitAndTheLoopClosesEverything() async throws {
        let root = LoggingScreen("root", journal: journal)
        let app = TerminalApp(root: root, terminal: terminal, colors: true)
        let (events, input) = AsyncStream.makeStream(of: TerminalEvent.self)
        let loop = Task { await app.run(events: events) }
        try await waitUntil("subscribed") { root.probe.open == 1 }
        root.probe.send("hello")
        try await waitUntil("the loop rendered the update") { terminal.lines.first == "root: hello" }
        input.yield(.key(.control("c")))
        await loop.value
        #expect(app.hasQuit && !root.isVisible)
        try await waitUntil("unsubscribed") { root.probe.open == 0 }

        let other = TerminalApp(
            root: LoggingScreen("other", journal: journal), terminal: FakeTerminal(size: Size(columns: 5, rows: 2)),
            colors: true)
        let (moreEvents, moreInput) = AsyncStream.makeStream(of: TerminalEvent.self)
        let otherLoop = Task { await other.run(events: moreEvents) }
        moreInput.finish()
        await otherLoop.value
        #expect(other.hasQuit, "the end of input ends the loop")
    }
}
