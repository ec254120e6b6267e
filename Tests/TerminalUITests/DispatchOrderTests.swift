import TerminalUI
import TerminalUITesting
import Testing

/// A store that holds the action named "held" until released, and records the actions it
/// received in the order they reached it.
actor GatedStore: ScreenStore {
    private(set) var received: [String] = []
    private var isHolding = false
    private var gate: CheckedContinuation<Void, Never>?
    private var holdingWaiter: CheckedContinuation<Void, Never>?

    func dispatch(_ action: String) async throws {
        if action == "held" {
            isHolding = true
            holdingWaiter?.resume()
            holdingWaiter = nil
            await withCheckedContinuation { gate = $0 }
        }
        received.append(action)
    }

    /// Returns once the held action reached the store.
    func untilHolding() async {
        guard !isHolding else { return }
        await withCheckedContinuation { holdingWaiter = $0 }
    }

    /// Lets the held action through.
    func release() {
        gate?.resume()
        gate = nil
    }
}

@MainActor @Suite struct DispatchOrderTests {
    let journal = Journal()

    @Test func aScreensDispatchesReachTheStoreInTheOrderTheyWereMade() async throws {
        let store = GatedStore()
        let screen = Screen(view: LabelView(), store: store)
        screen.dispatch("held") { [journal] _ in journal.log("held answered") }
        screen.dispatch("next") { [journal] _ in journal.log("next answered") }
        await store.untilHolding()
        // Anything the store takes while the first action is held overtook it.
        await store.release()
        try await waitUntil("both were answered", timeout: 120) { journal.entries.count == 2 }
        #expect(await store.received == ["held", "next"])
        #expect(journal.take() == ["held answered", "next answered"])
    }

    @Test func aRefusedDispatchDoesNotHoldUpTheNext() async throws {
        let store = RecordingStore()
        let screen = Screen(view: LabelView(), store: store)
        screen.dispatch("refuse") { [journal] result in journal.log("refuse: \(result)") }
        screen.dispatch("after") { [journal] result in journal.log("after: \(result)") }
        try await waitUntil("both were answered", timeout: 120) { journal.entries.count == 2 }
        #expect(store.actions == ["refuse", "after"])
        #expect(journal.take() == ["refuse: failure(TerminalUITests.RecordingStore.Refused())", "after: success()"])
    }
}
