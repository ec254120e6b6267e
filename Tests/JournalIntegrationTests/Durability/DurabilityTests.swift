import Foundation
import Glibc
import SyncProtocol
import SyncStore
import TestSupport
import Testing
import TodoDomain

@testable import IntegrationTestSupport

@Suite(.blocking) struct DurabilityTests {
    @Test func aRestartKeepsEveryItemAndNumber() throws {
        let daemon = try DaemonHarness()
        for text in ["one", "two", "three"] { #expect(try daemon.todo("add", text).status == 0) }
        _ = try daemon.todo("rm", "2")
        _ = try daemon.todo("done", "3")
        let before = try daemon.todo("list", "--json").output
        #expect(try daemon.stop() == 0)
        try daemon.start()
        #expect(try daemon.todo("list", "--json").output == before)
        _ = try daemon.todo("add", "four")
        #expect(try daemon.todo("list").output.contains("4 [ ] four"), "the next item gets the next number")
        #expect(try daemon.todo("status").output.contains("version: 6"))
    }

    @Test func aCrashAfterAnAckLosesNothing() throws {
        let daemon = try DaemonHarness()
        for text in ["kept", "also kept"] { #expect(try daemon.todo("add", text).status == 0) }
        try daemon.crash()
        try daemon.start()
        #expect(try daemon.todo("list").output == "1 [ ] kept\n2 [ ] also kept\n2 open, 0 done\n")
        #expect(daemon.process.standardError.contains("recovered version 2"))
    }

    @Test(.blocking(.long)) func killedAtRandomMomentsItKeepsEveryAcknowledgedActionAndShowedNothingItLost() throws {
        let daemon = try DaemonHarness()
        var expectedItems = 0
        for round in 0..<5 {
            let outcome = try CrashRound.run(daemon, round: round, killAfter: Double.random(in: 0.05...0.4))
            try daemon.start()
            let client = try WireClient(path: daemon.socketPath)
            let durable = try #require(try client.hello().version)
            #expect(!outcome.acked.isEmpty, "round \(round): the writers got acks before the kill")
            #expect(outcome.acked.values.allSatisfy { $0 <= durable }, "round \(round): an acked version is missing")
            #expect(
                outcome.highestUpdateSeen <= durable,
                "round \(round): a subscriber saw version \(outcome.highestUpdateSeen) but only \(durable) survived")

            let history = try fullHistory(client, upTo: durable)
            #expect(history.map(\.version) == Array(1...UInt64(durable)))
            for (text, version) in outcome.acked {
                #expect(
                    history[version - 1].payload["text"] == .string(text),
                    "round \(round): version \(version) is not what was acked")
            }
            let replayed = try replay(history)
            let export = try client.subscribeAndWait("export").update
            let items = try JSONDecoder().decode(
                ExportViewModel.self, from: JSONSerialization.data(withJSONObject: export.model ?? [:])
            ).items
            #expect(items == Array(replayed.state.items), "round \(round): the state is not the replay of the journal")
            #expect(items.count >= expectedItems + outcome.acked.count)
            expectedItems = items.count
        }
        #expect(expectedItems > 0)
    }

    @Test func aSecondDaemonOnTheSameDataDirectoryIsRefused() throws {
        let daemon = try DaemonHarness()
        let second = try ChildProcess(
            Binaries.path("todod"), ["--socket", daemon.directory + "/other.sock", "--data-dir", daemon.dataDirectory],
            outputDirectory: daemon.directory)
        #expect(try second.waitForExit() == 1)
        #expect(
            second.standardError.contains(
                "data directory \(daemon.dataDirectory) is in use by another todod (pid \(daemon.process.pid))"))
        #expect(try daemon.todo("add", "still fine").status == 0)
    }

    /// Another app's daemon keeps its journal under the same file name: its data directory,
    /// marked by that daemon's lock file, is refused and left as it is.
    @Test func aDataDirectoryOfAnotherAppsDaemonIsRefused() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = directory + "/board"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: data + "/boardd.lock", contents: Data()))
        let daemon = try ChildProcess(
            Binaries.path("todod"), ["--socket", directory + "/s.sock", "--data-dir", data], outputDirectory: directory)
        #expect(try daemon.waitForExit() == 1)
        #expect(
            daemon.standardError.contains(
                "data directory \(data) belongs to boardd (it holds boardd.lock); give this daemon a directory of its own"
            ))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data) == ["boardd.lock"])
    }

    /// Every history entry from 1 to `version`, paging through the 1000-entry limit.
    private func fullHistory(_ client: WireClient, upTo version: Int) throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        while entries.count < version {
            let id = client.makeID()
            let reply = try client.request(["type": "history", "id": id, "after": entries.count, "limit": 1000])
            let page = try JSONDecoder().decode(
                [HistoryEntry].self, from: JSONSerialization.data(withJSONObject: reply["entries"] ?? []))
            guard !page.isEmpty else { break }
            entries += page
        }
        return entries
    }

    /// The store a replay of `history` gives, done here, independently of the daemon.
    private func replay(_ history: [HistoryEntry]) throws -> Store<TodoState> {
        var store = Store(state: TodoApp.initialState)
        for entry in history {
            let type = try #require(TodoApp.actionType(named: entry.name))
            try Self.apply(type, JSONEncoder().encode(entry.payload), to: &store)
        }
        return store
    }

    private static func apply<A: Action<TodoState>>(_ type: A.Type, _ payload: Data, to store: inout Store<TodoState>)
        throws
    {
        try store.apply(JSONDecoder().decode(A.self, from: payload))
    }
}

/// Several pipelining writers and a subscriber against a daemon that is SIGKILLed mid-stream.
enum CrashRound {
    struct Outcome {
        /// Text of each acked add, with the version its ack carried.
        var acked: [String: Int] = [:]
        /// The highest version any update showed the subscriber.
        var highestUpdateSeen = 0
    }

    /// The outcome, shared by the client threads.
    private final class Shared: @unchecked Sendable {
        // @unchecked: `outcome` is only touched under `lock`.
        private let lock = NSLock()
        private var outcome = Outcome()
        func update(_ change: (inout Outcome) -> Void) { lock.withLock { change(&outcome) } }
        var value: Outcome { lock.withLock { outcome } }
    }

    static func run(_ daemon: DaemonHarness, round: Int, killAfter delay: Double) throws -> Outcome {
        let shared = Shared()
        let group = DispatchGroup()
        let writers = try (0..<3).map { _ in try daemon.greetedClient() }
        let watcher = try daemon.greetedClient()
        _ = try watcher.subscribeAndWait("summary")
        for (index, writer) in writers.enumerated() {
            DispatchQueue.global().async(group: group) {
                var outstanding: [Int: String] = [:]
                var next = 0
                do {
                    while true {
                        while outstanding.count < 16 {
                            let text = "r\(round)-w\(index)-\(next)"
                            next += 1
                            outstanding[try writer.dispatch("add", ["text": text])] = text
                        }
                        let message = try writer.receive()
                        if message.type == "ack", let id = message.id, let text = outstanding.removeValue(forKey: id),
                            let version = message.version
                        {
                            shared.update { $0.acked[text] = version }
                        }
                    }
                } catch {}
            }
        }
        DispatchQueue.global().async(group: group) {
            while let message = try? watcher.receive() {
                if message.type == "update", let version = message.version {
                    shared.update { $0.highestUpdateSeen = max($0.highestUpdateSeen, version) }
                }
            }
        }
        // The kill comes at a random moment once the writers are under way.
        try eventually("no ack arrived") { shared.value.acked.isEmpty ? nil : true }
        usleep(UInt32(delay * 1_000_000))
        try daemon.crash()
        guard group.wait(timeout: .now() + 30) == .success else {
            throw TestFailure("clients did not notice the crash")
        }
        return shared.value
    }
}

@Suite(.blocking) struct DataDirectoryTests {
    @Test func aDataDirectoryReachedThroughASymbolicLinkWorks() throws {
        // systemd's DynamicUser= makes /var/lib/todo a link to /var/lib/private/todo.
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/private/todo", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/todo", withDestinationPath: "private/todo")
        let daemon = try ChildProcess(
            Binaries.path("todod"), ["--socket", directory + "/todod.sock", "--data-dir", directory + "/todo"],
            outputDirectory: directory)
        defer { daemon.send(SIGKILL) }
        try eventually("todod did not start: \(daemon.standardError)") {
            DaemonHarness.isAnswering(directory + "/todod.sock") ? true : nil
        }
        #expect(daemon.standardError.contains("from \(directory)/private/todo/journal.sqlite3"))
    }
}
