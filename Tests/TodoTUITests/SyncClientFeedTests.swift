import SyncClient
import SyncStore
import SyncTerminalUI
import TestSupport
import Testing
import TodoDomain

/// The generic adapter over a real daemon: a view model feed, the connection-status feed and
/// the dispatcher, with no todo-specific code in between.
@Suite struct SyncClientFeedTests {
    @Test func aFeedFollowsWhatTheDispatcherSends() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "feed-tests/1")
        defer { client.close() }
        let feed = client.feed(ListViewModel.self, params: .init(filter: .open))
        #expect(feed.name == #"list {"filter":"open"}"#)
        let dispatch = client.dispatcher(of: TodoState.self)
        var texts: [[String]] = []
        for try await update in feed.open() {
            texts.append(update.model?.items.map(\.text) ?? [])
            if texts.count == 1 { try await dispatch(AddItem(text: "from the dispatcher")) }
            if texts.last == ["from the dispatcher"] { break }
        }
        #expect(texts == [[], ["from the dispatcher"]])
        await #expect(throws: SyncClientError.self) { try await dispatch(CompleteItem(number: 7)) }
    }

    @Test func theConnectionFeedStartsConnectedAndEndsWhenTheClientCloses() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "feed-tests/1")
        var statuses: [DisplayedConnectionState] = []
        for try await status in client.connectionStateFeed().open() {
            statuses.append(status)
            if statuses.count == 1 { client.close() }
        }
        #expect(statuses.first == .connected(version: 0))
        #expect(statuses.count == 2, "then closed: \(statuses)")
        if case .disconnected = statuses.last {
        } else {
            Issue.record("the last status is \(String(describing: statuses.last))")
        }
    }
}
