import Foundation
import Glibc
import SyncClient
import SyncStore
import Synchronization
import TestSupport
import Testing
import TodoDomain

@testable import IntegrationTestSupport

/// SyncClient across daemon restarts and crashes: reconnection, resumed subscriptions, requests
/// sent again, and dispatches applied exactly once.
@Suite struct ReconnectTests {
    /// Reconnects quickly, so the tests do not wait on backoff.
    private static let quickly = ReconnectPolicy(
        reconnects: true, initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200), giveUpAfter: .seconds(60))

    private func connect(_ daemon: DaemonHarness, policy: ReconnectPolicy = quickly) async throws -> SyncClient {
        try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "tests/1", reconnect: policy)
    }

    /// Waits for the first state matching `condition` on `states`.
    private func waitFor(_ states: inout AsyncStream<ConnectionState>.Iterator, _ condition: (ConnectionState) -> Bool)
        async throws -> ConnectionState
    {
        while let state = await states.next() {
            if condition(state) { return state }
        }
        throw TestFailure("the state stream ended")
    }

    @Test func subscriptionResumesAfterARestartAndReportsTheConnectionState() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await connect(daemon)
        defer { client.close() }
        var states = client.connectionStates().makeAsyncIterator()
        #expect(await states.next() == .connected(version: 0))
        var updates = client.subscribe(ListViewModel.self, params: .init(filter: .all)).makeAsyncIterator()
        #expect(try await updates.next()?.version == 0)
        _ = try await client.dispatch(AddItem(text: "before"))
        #expect(try await updates.next()?.model?.items.map(\.text) == ["before"])

        try await daemon.stop()
        let lost = try await waitFor(&states) { if case .reconnecting = $0 { true } else { false } }
        guard case .reconnecting(_, let reason) = lost else { throw TestFailure("\(lost)") }
        // The first reconnecting state names the bye; a reader slower than the reconnection
        // attempts (under a sanitizer) may first see a later attempt's, which finds no daemon.
        if case .connectionClosed(.daemonSaidBye) = reason {
            #expect(reason.description.contains("bye"))
        } else {
            #expect(reason.description.contains("cannot reach the daemon"), "\(reason)")
        }

        try await daemon.start()
        #expect(
            try await waitFor(&states) { if case .connected = $0 { true } else { false } } == .connected(version: 1))
        let other = try await connect(daemon, policy: .never)
        defer { other.close() }
        _ = try await other.dispatch(AddItem(text: "after"))
        // The resumed subscription skips the unchanged model at version 1 and shows version 2.
        let resumed = try #require(try await updates.next())
        #expect(resumed.version == 2)
        #expect(resumed.model?.items.map(\.text) == ["before", "after"])
    }

    @Test func requestsMadeWhileTheDaemonIsDownCompleteOnceItIsBack() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await connect(daemon)
        defer { client.close() }
        var states = client.connectionStates().makeAsyncIterator()
        try await daemon.stop()
        _ = try await waitFor(&states) { if case .reconnecting = $0 { true } else { false } }

        async let version = client.dispatch(AddItem(text: "while down"))
        async let pong: Void = client.ping()
        try await daemon.start()
        #expect(try await version == 1)
        try await pong
        let list = try await client.get(ListViewModel.self, params: .init(filter: .all))
        #expect(list.model?.items.map(\.text) == ["while down"])
    }

    /// Writers keep 16 dispatches in flight each while the daemon is killed (SIGKILL) and
    /// restarted under them, twice. Some actions were committed but their acks never left:
    /// sent again, they must not be applied twice. Every dispatch returns a distinct version,
    /// and the list holds each text exactly once.
    @Test func dispatchesAcrossCrashesAreAppliedExactlyOnce() async throws {
        let daemon = try await DaemonHarness.started()
        let clients = try await (0..<3).asyncMap { _ in try await connect(daemon) }
        defer { for client in clients { client.close() } }
        let crashes = Counter()

        let versions = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            group.addTask {
                for _ in 0..<2 {
                    try await Task.sleep(for: .milliseconds(300))
                    try await daemon.crash()
                    try await daemon.start()
                    crashes.increment()
                }
                return []
            }
            for (writer, client) in clients.enumerated() {
                group.addTask {
                    try await withThrowingTaskGroup(of: UInt64.self) { inFlight in
                        var versions: [UInt64] = []
                        var number = 0
                        while crashes.value < 2 || number < 100 {
                            if number >= 16, let version = try await inFlight.next() { versions.append(version) }
                            let text = "w\(writer)-\(number)"
                            inFlight.addTask { try await client.dispatch(AddItem(text: text)) }
                            number += 1
                        }
                        return try await inFlight.reduce(into: versions) { $0.append($1) }
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append(contentsOf: $1) }
        }

        #expect(Set(versions).count == versions.count)
        let reader = try await connect(daemon, policy: .never)
        defer { reader.close() }
        let texts = try #require(try await reader.get(ListViewModel.self, params: .init(filter: .all)).model).items.map(
            \.text)
        #expect(texts.count == versions.count)
        #expect(Set(texts).count == texts.count)
    }

    @Test func aPolicyThatGivesUpFailsWaitingRequests() async throws {
        let daemon = try await DaemonHarness.started()
        let policy = ReconnectPolicy(
            reconnects: true, initialDelay: .milliseconds(20), maximumDelay: .milliseconds(50),
            giveUpAfter: .milliseconds(300))
        let client = try await connect(daemon, policy: policy)
        try await daemon.stop()
        do {
            _ = try await client.dispatch(AddItem(text: "never"))
            Issue.record("expected the client to give up")
        } catch {
            guard case .connectionClosed(let reason) = error else { throw error }
            #expect(reason.description.contains("gave up reconnecting"))
            guard case .gaveUp(after: .milliseconds(300), _) = reason else { throw TestFailure("\(reason)") }
        }
        guard case .closed = client.connectionState else { throw TestFailure("still \(client.connectionState)") }
    }

    @Test func closingWhileReconnectingFailsWaitingRequestsAndEndsTheStates() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await connect(daemon)
        var states = client.connectionStates().makeAsyncIterator()
        try await daemon.stop()
        _ = try await waitFor(&states) { if case .reconnecting = $0 { true } else { false } }
        async let waiting = client.dispatch(AddItem(text: "never sent"))
        try await Task.sleep(for: .milliseconds(50))
        client.close()
        do {
            _ = try await waiting
            Issue.record("expected the dispatch to fail")
        } catch {
            #expect(error as? SyncClientError == .connectionClosed(.closedByClient))
        }
        #expect(
            try await waitFor(&states) { if case .closed = $0 { true } else { false } }
                == .closed(reason: .connectionClosed(.closedByClient)))
        #expect(await states.next() == nil)
        try await daemon.start()
        let list = try await daemon.todo("list", "--json")
        #expect(list.output.contains(#""items":[]"#), "the closed client sent nothing: \(list.output)")
    }

    @Test(.blocking) func watchReportsTheLostDaemonAndGoesOnAfterARestart() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.todo("add", "first")
        let watch = try daemon.startTodo(["watch"])
        defer {
            watch.send(SIGKILL)
            _ = try? watch.waitForExit()
        }
        try watch.waitForOutput { $0.contains("1 [ ] first") }
        try daemon.stop()
        _ = try eventually("watch did not report the lost daemon: \(watch.standardError)") {
            watch.standardError.contains("reconnecting") ? true : nil
        }
        try daemon.start()
        _ = try daemon.todo("add", "second")
        try watch.waitForOutput { $0.contains("2 [ ] second") }
        #expect(watch.standardError.contains("connected again at version"))
        #expect(watch.isRunning)
    }
}

/// A count shared between tasks.
private final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
    func increment() { count.add(1, ordering: .sequentiallyConsistent) }
}

extension Sequence {
    /// `map` with an async transform, one element at a time.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
