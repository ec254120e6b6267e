import Foundation
import TestSupport
import Testing

@testable import IntegrationTestSupport

@Suite(.blocking) struct DispatchAndSubscribeTests {
    @Test func dispatchIsAckedWithTheNewVersion() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let first = try client.dispatchAndWait("add", ["text": "one"])
        #expect(first.type == "ack" && first.version == 1)
        let second = try client.dispatchAndWait("add", ["text": "two"])
        #expect(second.type == "ack" && second.version == 2)
    }

    @Test func subscribersGetTheModelAtOnceAndOnEveryChange() throws {
        let daemon = try DaemonHarness()
        let writer = try daemon.greetedClient()
        let watcher = try daemon.greetedClient()
        let (subscription, first) = try watcher.subscribeAndWait("list", ["filter": "all"])
        #expect(first.version == 0)
        #expect(first.itemTexts == [])
        #expect(first.model?["openCount"] as? Int == 0)

        _ = try writer.dispatchAndWait("add", ["text": "  buy milk "])
        let update = try watcher.receive()
        #expect(update.type == "update" && update["subscription"] as? Int == subscription && update.version == 1)
        #expect(update.itemTexts == ["buy milk"])

        _ = try writer.dispatchAndWait("complete", ["number": 1])
        let completed = try watcher.receive()
        #expect(completed.version == 2)
        #expect((completed.model?["items"] as? [[String: Any]])?.first?["completed"] as? Bool == true)
        #expect(completed.model?["doneCount"] as? Int == 1)
    }

    @Test func anActionThatLeavesAModelUnchangedSendsItsSubscribersNothing() throws {
        let daemon = try DaemonHarness()
        let writer = try daemon.greetedClient()
        _ = try writer.dispatchAndWait("add", ["text": "open one"])
        let watcher = try daemon.greetedClient()
        _ = try watcher.subscribeAndWait("list", ["filter": "done"])
        // Editing an open item changes nothing a "done" list shows.
        #expect(try writer.dispatchAndWait("edit", ["number": 1, "text": "renamed"]).type == "ack")
        try watcher.expectOnlyPong()
        // Completing it does.
        #expect(try writer.dispatchAndWait("complete", ["number": 1]).type == "ack")
        #expect(try watcher.receive().itemTexts == ["renamed"])
    }

    @Test func twoSubscribersOfTheSamePairBothReceiveEachChange() throws {
        let daemon = try DaemonHarness()
        let first = try daemon.greetedClient()
        let second = try daemon.greetedClient()
        _ = try first.subscribeAndWait("summary")
        _ = try second.subscribeAndWait("summary")
        _ = try first.dispatchAndWait("add", ["text": "x"])
        #expect(try second.receive().model?["totalCount"] as? Int == 1)
    }

    @Test func updatesReflectingAVersionArriveBeforeItsAck() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let (subscription, _) = try client.subscribeAndWait("list")
        for n in 1...20 {
            let id = try client.dispatch("add", ["text": "item \(n)"])
            let (ack, before) = try client.receive(until: "ack", id: id)
            #expect(ack.version == n)
            let seen = before.filter { $0.type == "update" && $0["subscription"] as? Int == subscription }.compactMap(
                \.version)
            #expect(seen.contains { $0 >= n }, "an update reflecting version \(n) came before its ack")
        }
    }

    @Test func pipelinedDispatchesAreAppliedInArrivalOrder() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let ids = try (1...50).map { try client.dispatch("add", ["text": "item \($0)"]) }
        var acks: [Int: Int] = [:]
        while acks.count < ids.count {
            let message = try client.receive()
            if message.type == "ack", let id = message.id { acks[id] = message.version }
        }
        #expect(ids.map { acks[$0] } == Array(1...50))
        let list = try client.subscribeAndWait("list").update
        #expect(list.itemTexts == (1...50).map { "item \($0)" })
    }

    @Test func theItemViewModelIsNullWhenTheItemDoesNotExist() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let (_, first) = try client.subscribeAndWait("item", ["number": 1])
        #expect(first["model"] is NSNull)
        let (_, beforeAck) = try client.receive(until: "ack", id: try client.dispatch("add", ["text": "now it exists"]))
        let update = try #require(beforeAck.first { $0.type == "update" })
        #expect(update.model?["text"] as? String == "now it exists")
        #expect(update.model?["number"] as? Int == 1)
        #expect((update.model?["id"] as? String)?.count == 36)
        let (_, beforeRemoveAck) = try client.receive(until: "ack", id: try client.dispatch("remove", ["number": 1]))
        #expect(beforeRemoveAck.first { $0.type == "update" }?["model"] is NSNull)
    }

    @Test func unsubscribeStopsUpdates() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let (subscription, _) = try client.subscribeAndWait("summary")
        let reply = try client.request(["type": "unsubscribe", "id": 50, "subscription": subscription])
        #expect(reply.type == "unsubscribed" && reply.id == 50 && reply["subscription"] as? Int == subscription)
        let ack = try client.dispatchAndWait("add", ["text": "x"])
        #expect(ack.type == "ack")
        try client.expectOnlyPong()
    }

    @Test func sideEffectsDispatchThroughTheLoop() throws {
        let daemon = try DaemonHarness(arguments: ["--clear-done-after", "1"])
        let client = try daemon.greetedClient()
        _ = try client.dispatchAndWait("add", ["text": "finish me"])
        _ = try client.dispatchAndWait("add", ["text": "keep me"])
        _ = try client.subscribeAndWait("list")
        _ = try client.dispatchAndWait("complete", ["number": 1])
        // The expiry effect removes item 1 about a second later, as an ordinary action.
        let removed = try client.receive(until: "update").message
        #expect(removed.itemTexts == ["keep me"])
        #expect(removed.version == 4)
    }
}
