import Foundation
import SyncClient
import TestSupport
import Testing
import TodoDomain

@testable import IntegrationTestSupport

/// Side effects a client dispatches by name, run by the real `todod`.
@Suite(.blocking) struct SideEffectTests {
    private static func expireDone(_ id: Int, _ seconds: Int) -> [String: Any] {
        ["type": "dispatch", "id": id, "action": ["name": "expireDone", "payload": ["olderThanSeconds": seconds]]]
    }

    private static func awaitDone(_ id: Int, _ number: Int) -> [String: Any] {
        ["type": "dispatch", "id": id, "action": ["name": "awaitDone", "payload": ["number": number]]]
    }

    @Test func aClientRunsASideEffectAndItsActionsAreJournaledAndPushed() async throws {
        let daemon = try DaemonHarness()
        for text in ["a", "b", "c"] { #expect(try await daemon.todo("add", text).status == 0) }
        #expect(try await daemon.todo("done", "1").status == 0)
        #expect(try await daemon.todo("done", "3").status == 0)
        let watcher = try daemon.greetedClient(name: "watcher/1")
        #expect(try watcher.subscribeAndWait("list").update.itemTexts == ["a", "b", "c"])

        let client = try await SyncClient.connect(
            socketPath: daemon.socketPath, clientName: "tests/1", reconnect: .never)
        #expect(try await client.run(ExpireDone(olderThanSeconds: 0)) == ExpireDone.Result(removed: 2))
        // Both removes are durable and visible before the result: the history has them now.
        let entries = try await client.history(after: 5)
        #expect(entries.map(\.name) == ["remove", "remove"])
        #expect(entries.map(\.version) == [6, 7])
        var texts: [String]?
        while texts != ["b"] { texts = try watcher.receive(until: "update").message.itemTexts }
        #expect(
            try await client.run(ExpireDone(olderThanSeconds: 0)) == ExpireDone.Result(removed: 0),
            "nothing left to remove")
        client.close()

        // On the wire: a `result` with the version reached, after the updates.
        let wire = try daemon.greetedClient()
        #expect(try wire.dispatchAndWait("complete", ["number": 2]).type == "ack")
        let reply = try wire.request(Self.expireDone(7, 0))
        #expect(reply.type == "result" && reply.id == 7 && reply.version == 9)
        #expect((reply["result"] as? [String: Any])?["removed"] as? Int == 1)
        #expect(try await daemon.stop() == 0)
    }

    @Test(.blocking) func todoExpireRunsTheSideEffectAndPrintsHowManyWentAway() throws {
        let daemon = try DaemonHarness()
        for text in ["a", "b"] { #expect(try daemon.todo("add", text).status == 0) }
        #expect(try daemon.todo("done", "2").status == 0)
        #expect(try daemon.todo("expire", "3600").output == "removed 0 items\n", "done just now")
        let expired = try daemon.todo("expire", "0")
        #expect(expired.status == 0 && expired.output == "removed 1 item\n")
        #expect(try daemon.todo("list").output.contains("1 open, 0 done"))
        for arguments in [["expire"], ["expire", "-1"], ["expire", "soon"], ["expire", "1", "2"]] {
            let refused = try daemon.run(arguments)
            #expect(
                refused.status == 2
                    && refused.error.hasPrefix("todo: expire needs one whole number of seconds, 0 or more\n"))
        }
        #expect(try daemon.todo("status").output.contains("version: 4"), "nothing else was dispatched")
        #expect(try daemon.stop() == 0)
    }

    @Test func aSideEffectsErrorReachesSyncClientAsTheServersError() async throws {
        let daemon = try DaemonHarness()
        let client = try await SyncClient.connect(
            socketPath: daemon.socketPath, clientName: "tests/1", reconnect: .never)
        await #expect(throws: SyncClientError.server(code: "rejected", message: "no item 4")) {
            try await client.run(AwaitDone(number: 4))
        }
        client.close()
        #expect(try await daemon.stop() == 0)
    }

    @Test(.blocking) func badSideEffectRequestsGetClearErrorsAndChangeNothing() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.todo("add", "keep").status == 0)
        let client = try daemon.greetedClient()
        let unknown = try client.expectError([
            "type": "dispatch", "id": 1, "action": ["name": "sweep", "payload": [:] as [String: Any]],
        ])
        #expect(unknown.code == "unknown_action" && unknown.id == 1)
        #expect(unknown["message"] as? String == #"No action or side effect is named "sweep"."#)
        let thrown = try client.expectError(Self.expireDone(2, -1))
        #expect(thrown.code == "rejected" && thrown.id == 2)
        #expect(thrown["message"] as? String == "the age must be from 0 to 3153600000 seconds, not -1")
        let missing = try client.expectError(Self.awaitDone(3, 9))
        #expect(missing.code == "rejected" && missing["message"] as? String == "no item 9")
        let payload = try client.expectError([
            "type": "dispatch", "id": 4, "action": ["name": "expireDone", "payload": ["olderThanSeconds": "x"]],
        ])
        #expect(payload.code == "invalid_payload" && payload.id == 4)
        var numbered = Self.expireDone(5, 0)
        numbered["sequence"] = 1
        let sequenced = try client.expectError(numbered)
        #expect(sequenced.code == "invalid_message" && sequenced.id == 5)
        try client.expectOnlyPong()
        #expect(try client.subscribeAndWait("list").update.itemTexts == ["keep"])
        #expect(try daemon.stop() == 0)
    }

    @Test(.blocking) func aClientThatFinishesSendingHasItsSideEffectCancelledAtOnce() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.todo("add", "never done").status == 0)
        let client = try daemon.greetedClient()
        try client.send(Self.awaitDone(3, 1))
        // Half-closed: the client still reads. The side effect would wait for ever.
        shutdown(client.descriptor, Int32(SHUT_WR))
        let cancelled = try client.receive()
        #expect(cancelled.type == "error" && cancelled.code == "cancelled" && cancelled.id == 3)
        #expect((cancelled["message"] as? String)?.contains("its client finished sending") == true)
        #expect(try client.readsEndOfStream(), "nothing else awaited: the daemon closes")
        #expect(try daemon.todo("status").output.contains("version: 1"))
        #expect(try daemon.stop() == 0)
    }

    @Test(.blocking) func aClientKilledWhileItsSideEffectRunsHasItCancelledAtOnce() throws {
        let daemon = try DaemonHarness(arguments: ["--log-level", "debug"])
        #expect(try daemon.todo("add", "never done").status == 0)
        // A client in another process sends a side effect that waits for ever, then a ping: its
        // pong says the side effect started (frames are served in order). Then it hangs.
        let script = """
            import socket, struct, sys, time
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            for m in (b'{"type":"hello","id":0,"protocol":1,"client":"killed/1"}',
                      b'{"type":"dispatch","id":1,"action":{"name":"awaitDone","payload":{"number":1}}}',
                      b'{"type":"ping","id":2}'):
                s.sendall(struct.pack(">I", len(m)) + m)
            buffered = b""
            while b'"pong"' not in buffered:
                buffered += s.recv(65536)
            print("started", flush=True); time.sleep(600)
            """
        let client = try ChildProcess(
            "/usr/bin/python3", ["-c", script, daemon.socketPath], outputDirectory: daemon.dataDirectory)
        _ = try client.waitForOutput { $0.contains("started") }
        client.send(SIGKILL)
        _ = try client.waitForExit()
        try eventually("the killed client's side effect was not cancelled") {
            daemon.process.standardError.contains("(killed/1) finished sending: cancelled 1 side effect") ? true : nil
        }
        #expect(try daemon.stop() == 0)
    }

    @Test(.blocking) func aConnectionRunsAtMostEightAtOnce() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.todo("add", "wait for me").status == 0)
        let client = try daemon.greetedClient()
        for id in 1...8 { try client.send(Self.awaitDone(id, 1)) }
        let refused = try client.expectError(Self.awaitDone(9, 1))
        #expect(refused.code == "too_many_side_effects" && refused.id == 9)
        #expect(
            refused["message"] as? String
                == "This connection already runs 8 side effects, the most it may at once; wait for one to finish.")
        // Another connection has a bound of its own.
        let other = try daemon.greetedClient(name: "other/1")
        try other.send(Self.awaitDone(1, 1))
        #expect(try daemon.todo("done", "1").status == 0)
        let answer = try other.receive(until: "result", id: 1).message
        #expect((answer["result"] as? [String: Any])?["text"] as? String == "wait for me")
        var answered: Set<Int> = []
        while answered.count < 8 {
            let message = try client.receive(until: "result").message
            #expect((message["result"] as? [String: Any])?["text"] as? String == "wait for me")
            answered.insert(message.id ?? 0)
        }
        #expect(answered == Set(1...8))
        #expect(try client.request(Self.awaitDone(10, 1)).type == "result", "room again once they finished")
        #expect(try daemon.stop() == 0)
    }

    @Test(.blocking) func aSideEffectRunningAtShutdownIsCancelledWithAClearError() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.todo("add", "never done").status == 0)
        let client = try daemon.greetedClient()
        try client.send(Self.awaitDone(1, 1))
        try client.expectOnlyPong()
        daemon.process.send(SIGTERM)
        let cancelled = try client.receive()
        #expect(cancelled.type == "error" && cancelled.code == "cancelled" && cancelled.id == 1)
        #expect(
            cancelled["message"] as? String
                == "The side effect was cancelled: the daemon is shutting down. Actions it dispatched before were accepted and commit as usual."
        )
        #expect(try client.receive().type == "bye")
        #expect(try daemon.waitForStop() == 0)
    }
}
