import Foundation
import Glibc
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// `get` with `at`: any past version's view model, rebuilt from the journal, exactly as its
/// subscribers were sent it; refused clearly beyond what can or may be rebuilt.
@Suite(.blocking) struct TimeTravelTests {
    /// Actions that each change the list: adds, a completion, an edit, a removal, an undo, a
    /// clear, an import.
    static var actions: [(String, [String: Any])] {
        [
            ("add", ["text": "buy milk"]), ("add", ["text": "walk dog"]), ("add", ["text": "write letter"]),
            ("complete", ["number": 1]), ("edit", ["number": 2, "text": "walk the dog"]), ("add", ["text": "call mum"]),
            ("remove", ["number": 3]), ("undo", [:]), ("complete", ["number": 2]), ("clearCompleted", [:]),
            (
                "import",
                ["items": [["id": "imported-1", "number": 40, "text": "imported", "completed": true, "createdAt": 5]]]
            ),
            ("reopen", ["number": 40]), ("add", ["text": "last"]), ("edit", ["number": 4, "text": "call mum today"]),
        ]
    }

    /// Dispatches `actions` one by one on `writer`, recording what `recorder`'s subscriber is
    /// sent up to each version; `afterEach` runs after each ack, with its version.
    static func play(
        _ actions: [(String, [String: Any])], on writer: WireClient, recording recorder: inout PastModelRecorder,
        afterEach: (Int) throws -> Void = { _ in }
    ) throws -> Int {
        var version = 0
        for (name, payload) in actions {
            let reply = try writer.dispatchAndWait(name, payload)
            guard reply.type == "ack", let acked = reply.version else {
                throw TestFailure("\(name) was not acknowledged: \(reply)")
            }
            version = acked
            try recorder.record(through: version)
            try afterEach(version)
        }
        return version
    }

    @Test func everyPastVersionIsTheModelSubscribersWereSentAcrossSnapshots() throws {
        // A snapshot every 4 versions: versions above the newest one replay from it, the
        // others from the oldest snapshot kept in their span, or the initial state.
        let daemon = try DaemonHarness(arguments: ["--snapshot-interval", "4"])
        var list = try PastModelRecorder(try daemon.greetedClient(), viewModel: "list")
        var open = try PastModelRecorder(try daemon.greetedClient(), viewModel: "list", params: ["filter": "open"])
        let writer = try daemon.greetedClient()
        let last = try Self.play(Self.actions, on: writer, recording: &list)
        try open.record(through: last)
        #expect(last == Self.actions.count)
        #expect(list.seen.count == last + 1, "every action changed the list, so every version was sent")

        let reader = try daemon.greetedClient()
        for (version, model) in list.seen.sorted(by: { $0.key < $1.key }) {
            let answer = try PastModelRecorder.get(reader, "list", at: version)
            #expect(answer.version == version)
            #expect(
                answer.model == model,
                "list at \(version): \(String(decoding: answer.model, as: UTF8.self)) != \(String(decoding: model, as: UTF8.self))"
            )
        }
        for (version, model) in open.seen {
            #expect(
                try PastModelRecorder.get(reader, "list", ["filter": "open"], at: version).model == model,
                "open list at \(version)")
        }
        let current = try PastModelRecorder.get(reader, "list", at: nil)
        #expect(current.version == last && current.model == list.seen[last])

        // After a restart (recovery from the newest snapshot) the past is the same.
        #expect(try daemon.stop() == 0)
        try daemon.start()
        let again = try daemon.greetedClient()
        for version in [0, 3, 4, 9, last - 1] {
            #expect(
                try PastModelRecorder.get(again, "list", at: version).model == list.seen[version],
                "list at \(version) after a restart")
        }
    }

    @Test func aLongJournalKeepsASnapshotWithinReachOfEveryVersion() throws {
        // A snapshot after every action; at most 6 replayed, so one snapshot is kept per span
        // of 3 versions (the oldest in it) besides the newest.
        let daemon = try DaemonHarness(arguments: ["--snapshot-interval", "1", "--max-replay", "6"])
        var recorder = try PastModelRecorder(try daemon.greetedClient(), viewModel: "list")
        // Snapshots are encoded after their commits and saved by later jobs; a daemon whose
        // encoding falls more than a few behind its commits skips the oldest due. So the next
        // action waits for the last one's snapshot: which ones are kept is then the pruning's
        // alone, not the machine's speed.
        let journal = JournalFile.path(daemon)
        let last = try Self.play(Self.actions, on: try daemon.greetedClient(), recording: &recorder) { version in
            _ = try eventually("no snapshot at version \(version)") {
                try JournalFile.query("SELECT max(version) FROM snapshots", on: journal) == ["\(version)"] ? true : nil
            }
        }
        let expected = ["1", "3", "6", "9", "12", "14"]
        let kept = try JournalFile.query("SELECT version FROM snapshots ORDER BY version", on: journal)
        #expect(kept == expected)
        let reader = try daemon.greetedClient()
        for version in 0...last {
            #expect(
                try PastModelRecorder.get(reader, "list", at: version).model == recorder.seen[version],
                "list at \(version)")
        }
    }

    @Test(.enabled(if: PrivatePostgres.isAvailable, Comment(rawValue: PrivatePostgres.skipReason)))
    func pastVersionsOfASharedLogAreTheSameOnEveryDaemon() throws {
        // A snapshot with every commit, at most 6 actions replayed: PostgreSQL keeps the three
        // newest snapshots and the oldest of each span of 3 versions.
        let cluster = try SharedLogCluster(daemons: 2, arguments: ["--snapshot-interval", "1", "--max-replay", "6"])
        defer { cluster.close() }
        var recorder = try PastModelRecorder(try cluster.daemons[1].greetedClient(), viewModel: "list")
        let writers = try cluster.daemons.map { try $0.greetedClient() }
        var last = 0
        for (index, (name, payload)) in Self.actions.enumerated() {
            let reply = try writers[index % 2].dispatchAndWait(name, payload)
            guard reply.type == "ack", let version = reply.version else {
                throw TestFailure("\(name) was not acknowledged: \(reply)")
            }
            last = version
            try recorder.record(through: version)
        }
        #expect(last == Self.actions.count)
        _ = try cluster.agreedList(atLeast: last)
        #expect(
            try cluster.postgres.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM todod_snapshots")
                == "1,3,6,9,12,13,14")
        for daemon in cluster.daemons {
            let reader = try daemon.greetedClient()
            for (version, model) in recorder.seen {
                #expect(
                    try PastModelRecorder.get(reader, "list", at: version).model == model,
                    "list at \(version) on \(daemon.socketPath)")
            }
        }
    }

    @Test func aRebuildRunsOffTheLoop() throws {
        // 3000 actions; the snapshots kept are at 1000 (the oldest of its span of 5000) and 3000, so 2999 replays 1999 actions from 1000.
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        for start in stride(from: 0, to: 3000, by: 500) {
            let batch = (start..<start + 500).map {
                WireClient.dispatchMessage(id: 10_000 + $0, "add", ["text": "item \($0)"])
            }
            for (_, reply) in try client.pipeline(batch) where reply.type != "ack" {
                throw TestFailure("not acknowledged: \(reply)")
            }
        }
        // The get and the ping arrive together: the ping is answered in the same loop pass; the
        // rebuild's answer comes in a later one, after the journal was read and the actions
        // replayed on the thread pool (a get answered on the loop would come first).
        try client.sendTogether([
            ["type": "get", "id": 1, "viewModel": "summary", "at": 2999], ["type": "ping", "id": 2],
        ])
        let first = try client.receive()
        #expect(first.type == "pong" && first.id == 2)
        let model = try client.receive()
        #expect(model.type == "model" && model.id == 1 && model.version == 2999)
        #expect(model.model?["totalCount"] as? Int == 2999)
    }

    @Test func badAndImpossibleVersionsAreRefusedClearlyAndChangeNothing() throws {
        // Snapshots every 5 versions, at most 3 actions replayed per read.
        let daemon = try DaemonHarness(arguments: ["--snapshot-interval", "5", "--max-replay", "3"])
        var recorder = try PastModelRecorder(try daemon.greetedClient(), viewModel: "list")
        let client = try daemon.greetedClient()
        let last = try Self.play(Array(Self.actions.prefix(7)), on: client, recording: &recorder)
        #expect(last == 7)
        // The snapshot at 5 is encoded after its commit and saved by a later job.
        try eventually("no snapshot at 5") {
            try JournalFile.query("SELECT version FROM snapshots WHERE version = 5", on: JournalFile.path(daemon))
                == ["5"] ? true : nil
        }

        // Within the bound: 2 actions from the initial state, 1 from the snapshot at 5 (6
        // from the initial state would be beyond it).
        #expect(try PastModelRecorder.get(client, "list", at: 2).model == recorder.seen[2])
        #expect(try PastModelRecorder.get(client, "list", at: 6).model == recorder.seen[6])
        #expect(try PastModelRecorder.get(client, "list", at: 5).model == recorder.seen[5])

        let beyond = try client.expectError(["type": "get", "id": 1, "viewModel": "list", "at": 4])
        #expect(beyond.code == "replay_limit" && beyond.id == 1)
        #expect(
            beyond["message"] as? String
                == "Rebuilding version 4 replays 4 actions from the initial state; this daemon replays at most 3 per request. Ask for a version from 0 to 3, or the current one, or raise the daemon's replay limit."
        )

        let future = try client.expectError(["type": "get", "id": 2, "viewModel": "list", "at": 8])
        #expect(future.code == "future_version")
        #expect(future["message"] as? String == "Version 8 is in the future: the current version is 7.")

        for bad: Any in [-1, "3", 1.5, true, [3]] {
            let reply = try client.expectError(["type": "get", "id": 3, "viewModel": "list", "at": bad])
            #expect(reply.code == "invalid_message" && reply.id == 3, "at: \(bad)")
        }
        try client.sendPayload(Data(#"{"type":"get","id":4,"viewModel":"list","at":1e0}"#.utf8))
        #expect(try client.receive().code == "invalid_message")
        try client.sendPayload(Data(#"{"type":"get","id":5,"viewModel":"list","at":2.0}"#.utf8))
        #expect(try client.receive().code == "invalid_message")
        try client.sendPayload(Data(#"{"type":"get","id":6,"viewModel":"list","at":3,}"#.utf8))
        #expect(try client.receive().code == "invalid_json")
        #expect(
            try client.expectError(["type": "get", "id": 7, "viewModel": "nope", "at": 2]).code == "unknown_view_model")
        #expect(
            try client.expectError(["type": "get", "id": 8, "viewModel": "list", "params": ["filter": "some"], "at": 2])
                .code == "invalid_params")
        #expect(try client.expectError(["type": "get", "id": 9, "at": 2]).code == "invalid_message")

        // Nothing was lost or changed, and the connection is served.
        try client.expectOnlyPong()
        let current = try PastModelRecorder.get(client, "list", at: nil)
        #expect(current.version == 7 && current.model == recorder.seen[7])
        #expect(try client.dispatchAndWait("add", ["text": "after"]).version == 8)
        #expect(try PastModelRecorder.get(client, "list", at: 7).model == recorder.seen[7])
    }
}
