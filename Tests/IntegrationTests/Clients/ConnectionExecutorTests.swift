import SyncClient
import SyncStore
import TestSupport
import Testing
import TodoDomain

@testable import IntegrationTestSupport

/// `SyncClient.executor`: a task that prefers it runs on the client's connection thread, its
/// replies and updates resume it there, it goes on running while the client waits to
/// reconnect, and once the client is closed it runs on the global executor.
@Suite struct ConnectionExecutorTests {
    private static let quickly = ReconnectPolicy(
        reconnects: true, initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200), giveUpAfter: .seconds(60))

    @Test func repliesAndUpdatesResumeATaskPreferringItOnTheConnectionThread() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "tests/1")
        defer { client.close() }
        #expect(!client.executor.isCurrent)

        let seen = try await withTaskExecutorPreference(client.executor) {
            var onThread: [Bool] = [client.executor.isCurrent]
            var updates = client.subscribe(ListViewModel.self, params: .init(filter: .all)).makeAsyncIterator()
            _ = try await updates.next()
            onThread.append(client.executor.isCurrent)
            for number in 1...20 {
                #expect(try await client.dispatch(AddItem(text: "item \(number)")) == UInt64(number))
                onThread.append(client.executor.isCurrent)
            }
            let update = try #require(try await updates.next())
            onThread.append(client.executor.isCurrent)
            #expect(update.model?.items.count ?? 0 >= 1)
            return onThread
        }
        #expect(seen.allSatisfy { $0 }, "\(seen)")

        // A task on the pool is resumed on the pool, as before.
        _ = try await client.dispatch(AddItem(text: "from the pool"))
        #expect(!client.executor.isCurrent)
        let list = try await client.get(ListViewModel.self, params: .init(filter: .all))
        #expect(list.model?.items.count == 21)
    }

    /// Were the task's steps left until the connection is back, this would wait for ever: the
    /// daemon starts again only after them.
    @Test(.timeLimit(.minutes(1))) func aTaskPreferringItRunsWhileTheClientWaitsToReconnect() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await SyncClient.connect(
            socketPath: daemon.socketPath, clientName: "tests/1", reconnect: Self.quickly)
        defer { client.close() }
        var states = client.connectionStates().makeAsyncIterator()
        try await daemon.stop()
        while let state = await states.next() {
            if case .reconnecting = state { break }
        }

        // The connection thread sleeps between attempts: the task still runs its steps there.
        let waiting = Task(executorPreference: client.executor) { try await client.dispatch(AddItem(text: "later")) }
        let steps = await withTaskExecutorPreference(client.executor) {
            var steps: [Bool] = []
            for _ in 0..<50 {
                await Task.yield()
                steps.append(client.executor.isCurrent)
            }
            return steps
        }
        #expect(steps.count == 50 && steps.allSatisfy { $0 })
        #expect(client.connectionState != .connected(version: 0), "still waiting for the daemon")

        try await daemon.start()
        #expect(try await waiting.value == 1)
    }

    /// A job left with an ended thread would wait for ever: the time limit turns that into a failure.
    @Test(.timeLimit(.minutes(1))) func afterCloseATaskPreferringItRunsOnTheGlobalExecutor() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "tests/1")
        client.close()
        // The thread notices the close a moment later; until then jobs still run there.
        var onThread = true
        while onThread {
            onThread = await withTaskExecutorPreference(client.executor) { client.executor.isCurrent }
            if onThread { try await Task.sleep(for: .milliseconds(10)) }
        }

        let answer = await withTaskExecutorPreference(client.executor) { () async -> Int in
            for _ in 0..<10 { await Task.yield() }
            return client.executor.isCurrent ? 0 : 42
        }
        #expect(answer == 42)
        do throws(SyncClientError) {
            _ = try await withTaskExecutorPreference(client.executor) { () async throws(SyncClientError) -> UInt64 in
                try await client.dispatch(AddItem(text: "x"))
            }
            Issue.record("a closed client dispatched")
        } catch {
            #expect(error == .connectionClosed(.closedByClient))
        }
    }
}
