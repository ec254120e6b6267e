import SyncClient
import SyncStore
import SyncTerminalUI
import TestSupport
import Testing
import TodoDomain

/// The screen store any app gets: over a real daemon it dispatches and feeds; inert it refuses
/// and ends its feeds; the connection state reads as text.
@Suite struct AppScreenStoreTests {
    @Test func aLiveStoreDispatchesAndFeedsAnyViewModelOfTheApp() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "store-tests/1")
        defer { client.close() }
        let store = AppScreenStore<TodoApp>.live(client)
        var counts: [Int] = []
        for try await update in store.feed(SummaryViewModel.self, params: NoParams()).open() {
            counts.append(update.model?.openCount ?? -1)
            if counts.count == 1 { try await store.dispatch(AddItem(text: "through the store")) }
            if counts.last == 1 { break }
        }
        #expect(counts == [0, 1])
        await #expect(throws: SyncClientError.self) { try await store.dispatch(CompleteItem(number: 9)) }
    }

    @Test func anInertStoreRefusesAndItsFeedsEndAtOnce() async throws {
        let store = AppScreenStore<TodoApp>.inert
        await #expect(throws: SyncClientError.self) { try await store.dispatch(AddItem(text: "nowhere")) }
        var updates = 0
        for try await _ in store.feed(SummaryViewModel.self, params: NoParams()).open() { updates += 1 }
        #expect(updates == 0)
    }

    @Test func theConnectionStateReadsAsText() {
        #expect(DisplayedConnectionState.connecting.text == "connecting...")
        #expect(DisplayedConnectionState.connected(version: 12).text == "connected v12")
        #expect(
            DisplayedConnectionState.reconnecting(attempt: 2, reason: "connection refused").problem
                == "reconnecting... (attempt 2: connection refused)")
        #expect(DisplayedConnectionState.disconnected(reason: "closed").problem == "disconnected: closed")
        #expect(DisplayedConnectionState.connected(version: 1).problem == nil)
    }
}
