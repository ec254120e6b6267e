import TerminalUI
import TerminalUITesting
import Testing

@MainActor @Suite struct ContainmentTests {
    let journal = Journal()
    let terminal = FakeTerminal(size: Size(columns: 20, rows: 4))

    private func parentWithChild() -> (parent: LoggingScreen, child: LoggingScreen, app: TerminalApp) {
        let parent = LoggingScreen("parent", journal: journal)
        let child = LoggingScreen("child", journal: journal)
        parent.add(child, in: parent.rootView.childRegion)
        parent.focusedChild = child
        return (parent, child, TerminalApp(root: parent, terminal: terminal, colors: true))
    }

    @Test func aChildIsDrawnInItsRegionAndAppearsWithItsParent() async throws {
        let (parent, child, app) = parentWithChild()
        app.start()
        #expect(
            journal.take() == [
                "parent setupInteraction", "parent didLoad",
                "child setupInteraction", "child didLoad", "child didResize 18x3", "parent didResize 20x4",
                "parent willAppear", "child willAppear", "child didAppear connected=true",
                "parent didAppear connected=true",
            ])
        try await waitUntil("both subscribed") { parent.probe.open == 1 && child.probe.open == 1 }
        child.probe.send("42")
        try await waitUntil("the child's model arrived") { child.rootView.model == "child: 42" }
        app.renderIfNeeded()
        #expect(terminal.lines == ["parent", "  child: 42", "", ""])
    }

    @Test func theChildDisconnectsWhenItsParentIsCovered() async throws {
        let (parent, child, app) = parentWithChild()
        parent.routes = [.show("other"): .push { [journal] _ in LoggingScreen("other", journal: journal) }]
        app.start()
        try await waitUntil("both subscribed") { child.probe.open == 1 }
        try parent.show("other")
        #expect(!child.isVisible && !child.isConnected)
        try await waitUntil("the child unsubscribed") { child.probe.open == 0 && parent.probe.open == 0 }
    }

    @Test func keysReachTheFocusedChildFirstThenTheParent() async throws {
        let store = RecordingStore()
        let parent = LoggingScreen("parent", store: store, journal: journal)
        let child = LoggingScreen("child", store: store, journal: journal)
        parent.add(child, in: parent.rootView.childRegion)
        let app = TerminalApp(root: parent, terminal: terminal, colors: true)
        app.start()
        app.handle(.key(.character("x")))
        try await waitUntil("the parent got it: no child has focus") { store.actions == ["x from parent"] }
        parent.focusedChild = child
        app.handle(.key(.character("x")))
        try await waitUntil("the focused child got it") { store.actions == ["x from parent", "x from child"] }
    }

    @Test func aChildDeclaresRoutesForItsParentsNavigator() throws {
        let (parent, child, app) = parentWithChild()
        child.routes = [.show("help"): .presentModally { [journal] _ in LoggingScreen("help", journal: journal) }]
        app.start()
        try child.show("help")
        #expect(app.navigator.routes == ["LoggingScreen", "help"])
        #expect(parent.isVisible)
    }

    @Test func removingAChildClosesItsSubscriptions() async throws {
        let (parent, child, app) = parentWithChild()
        app.start()
        try await waitUntil("subscribed") { child.probe.open == 1 }
        parent.remove(child)
        #expect(!child.isVisible && child.parent == nil && parent.focusedChild == nil)
        try await waitUntil("unsubscribed") { child.probe.open == 0 }
        app.renderIfNeeded()
        #expect(terminal.lines == ["parent", "", "", ""])
    }

    @Test func failuresOfAChildGoToItsParent() async throws {
        let (parent, child, app) = parentWithChild()
        app.start()
        child.dispatch("refuse")
        try await waitUntil("the parent heard") { parent.failures == ["Refused()"] }
    }
}
