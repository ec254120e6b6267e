import Foundation
import SyncProtocol
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// A subscriber that stops reading (a `todo watch` stopped with Ctrl-Z) while many changes
/// happen is left stale rather than fed models it cannot take: once it reads again it gets the
/// newest model, then every change, and the ack of its own dispatch still comes after a model
/// that shows it.
@Suite(.blocking) struct StalledSubscriberTests {
    @Test(.blocking(.long), arguments: [[String](), ["patch"]])
    func aSubscriberThatReadsAgainGetsTheNewestModelThenEveryChange(features: [String]) throws {
        let daemon = try DaemonHarness()
        let stalled = try WireClient(path: daemon.socketPath)
        try stalled.hello(features: features)
        var list = try stalled.follow("list")
        let writer = try daemon.greetedClient()
        // 5 imports of 200 items of ~1000 characters, then 100 adds, each acknowledged: the
        // stalled client is owed 105 models of about 1 MB (or patches of 200 KB, then small
        // ones), far more than its socket and the daemon's queue hold.
        try writer.importLargeItems(groups: 5, filler: "s")
        for number in 1...100 {
            #expect(try writer.dispatchAndWait("add", ["text": "added \(number)"]).type == "ack")
        }
        // Still reading nothing, it sends a change of its own; the daemon reads it once the
        // client has read enough of what it is owed.
        let mine = try stalled.dispatch("complete", ["number": 1])
        var versions: [UInt64] = []
        var acknowledged: UInt64?
        while acknowledged == nil {
            let payload = try stalled.receivePayload()
            switch try ServerReply.decode(Array(payload)) {
            case .update:
                try list.take(payload)
                versions.append(list.version)
            case .ack(Int64(mine), let version):
                acknowledged = version
            default:
                throw TestFailure(
                    "expected updates and the ack of \(mine), got \(String(decoding: payload, as: UTF8.self))")
            }
        }
        #expect(acknowledged == 106)
        #expect(list.version == 106, "the model showing its own change came before the ack")
        #expect(
            versions == versions.sorted() && Set(versions).count == versions.count,
            "models in order, each once: \(versions)")
        #expect(
            versions.count < 50, "\(versions.count) models for 106 versions: the intermediate ones were not skipped")
        let observer = try daemon.greetedClient()
        var current = [try observer.follow("list")]
        #expect(list.model == current[0].model, "it holds the daemon's newest model")

        // Then every change reaches it, one update each, in order.
        for number in 2...6 {
            let reply = try writer.dispatchAndWait("edit", ["number": number, "text": "edited \(number)"])
            try list.take(try stalled.receivePayload())
            #expect(reply.version.map(UInt64.init) == list.version)
        }
        try observer.catchUp(&current)
        #expect(list.model == current[0].model)
        #expect(list.version == 111)
        try stalled.expectOnlyPong()
        #expect(try daemon.stop() == 0, "clean exit, no leak or sanitizer report")
    }
}
