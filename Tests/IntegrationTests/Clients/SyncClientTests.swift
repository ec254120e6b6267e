import Foundation
import SyncClient
import SyncStore
import TestSupport
import Testing
import TodoDomain

@testable import IntegrationTestSupport

@Suite struct SyncClientTests {
    private func connect(_ daemon: DaemonHarness) async throws -> SyncClient {
        try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "tests/1")
    }

    @Test func dispatchesTypedActionsAndReceivesTypedModels() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await connect(daemon)
        defer { client.close() }
        #expect(client.server.protocolVersion == 1)
        #expect(client.server.name.hasPrefix("todod/"))

        var updates = client.subscribe(ListViewModel.self, params: .init(filter: .all)).makeAsyncIterator()
        let initial = try #require(try await updates.next())
        #expect(initial.version == 0 && initial.model?.items == [])

        let version = try await client.dispatch(AddItem(text: "typed"))
        #expect(version == 1)
        // The update reflecting the dispatch arrived before dispatch returned.
        let next = try #require(try await updates.next())
        #expect(next.version == 1)
        #expect(next.model?.items == [ListViewModel.Row(number: 1, text: "typed", completed: false)])
        #expect(next.model?.openCount == 1)

        let item = try await client.get(ItemViewModel.self, params: .init(number: 1))
        #expect(item.model?.item.text == "typed")
        let missing = try await client.get(ItemViewModel.self, params: .init(number: 2))
        #expect(missing.model == nil)
        #expect(try await daemon.stop() == 0, "clean exit with a client connected")
    }

    @Test func refusalsAreTypedErrorsCarryingTheProtocolCode() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await connect(daemon)
        defer { client.close() }
        do {
            _ = try await client.dispatch(CompleteItem(number: 4))
            Issue.record("expected a rejection")
        } catch {
            #expect(error.code == .rejected)
            #expect(error == .server(code: "rejected", message: "no item 4"))
        }
        try await client.ping()
    }

    @Test func anUnreachableDaemonIsATypedError() async throws {
        do {
            _ = try await SyncClient.connect(socketPath: "/tmp/no-such-dir-for-todo/todod.sock", clientName: "tests/1")
            Issue.record("expected a failure")
        } catch {
            guard case .daemonUnreachable(let path, _) = error else { throw error }
            #expect(path == "/tmp/no-such-dir-for-todo/todod.sock")
        }
    }

    @Test func concurrentDispatchesFromManyTasksAllLand() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await connect(daemon)
        defer { client.close() }
        let versions = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for n in 0..<40 { group.addTask { try await client.dispatch(AddItem(text: "task \(n)")) } }
            return try await group.reduce(into: [UInt64]()) { $0.append($1) }
        }
        #expect(versions.sorted() == Array(1...40))
        let summary = try await client.get(SummaryViewModel.self, params: NoParams())
        #expect(summary.model?.totalCount == 40)
    }

    @Test func leavingAStreamUnsubscribes() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await connect(daemon)
        defer { client.close() }
        // More than the daemon's 256 subscriptions per connection: each get must release its own.
        for number in 1...300 {
            _ = try await client.get(ItemViewModel.self, params: .init(number: number))
        }
        try await client.ping()
        _ = try await client.get(SummaryViewModel.self, params: NoParams())
    }

    @Test func withoutReconnectStreamsAndRequestsFailWhenTheDaemonStops() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await SyncClient.connect(
            socketPath: daemon.socketPath, clientName: "tests/1", reconnect: .never)
        var updates = client.subscribe(SummaryViewModel.self, params: NoParams()).makeAsyncIterator()
        _ = try await updates.next()
        try await daemon.stop()
        do {
            while try await updates.next() != nil {}
            Issue.record("expected the stream to fail")
        } catch let error as SyncClientError {
            guard case .connectionClosed = error else { throw error }
        }
        do {
            _ = try await client.dispatch(AddItem(text: "late"))
            Issue.record("expected a failure")
        } catch {
            guard case .connectionClosed = error else { throw error }
        }
        guard case .closed(let reason) = client.connectionState else {
            throw TestFailure("still \(client.connectionState)")
        }
        #expect(reason.description.contains("bye"))
        guard case .connectionClosed(.daemonSaidBye) = reason else { throw TestFailure("\(reason)") }
    }
}
