import Foundation
import SyncProtocol
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// Clients that ask for `patch` in `hello` get RFC 6902 patches after the first model; applied
/// in order, they always give the models other clients receive whole.
@Suite(.blocking) struct PatchUpdateTests {
    @Test func helloGrantsTheFeaturesThisDaemonHasAndIgnoresOthers() throws {
        let daemon = try DaemonHarness()
        let client = try WireClient(path: daemon.socketPath)
        let welcome = try client.hello(features: ["zip", "patch"])
        #expect(welcome["features"] as? [String] == ["patch"])
        let plain = try daemon.greetedClient()
        #expect(try plain.request(["type": "ping", "id": 5]).type == "pong")
        let none = try WireClient(path: daemon.socketPath)
        #expect(try none.hello(features: ["zip"])["features"] as? [String] == [])

        let wrong = try WireClient(path: daemon.socketPath)
        try wrong.send(["type": "hello", "id": 1, "protocol": 1, "client": "t", "features": "patch"])
        let refusal = try wrong.receive()
        #expect(refusal.type == "error")
        #expect(try wrong.readsEndOfStream())
    }

    /// 300 random changes to a list of a few hundred items: after each, the model rebuilt from
    /// patches equals the whole model a plain client receives, for the list and the summary.
    @Test(.blocking(.long), arguments: [1, 2] as [UInt64]) func patchesAppliedInOrderGiveTheWholeModels(seed: UInt64)
        throws
    {
        let daemon = try DaemonHarness()
        let writer = try daemon.greetedClient()
        for number in 1...200 { _ = try writer.dispatchAndWait("add", ["text": "item \(number)"]) }
        let patched = try WireClient(path: daemon.socketPath)
        try patched.hello(features: ["patch"])
        let plain = try daemon.greetedClient()
        var patchedModels = [try patched.follow("list"), try patched.follow("summary")]
        var plainModels = [try plain.follow("list"), try plain.follow("summary")]

        var random = SeededRandom(seed: seed)
        for step in 0..<300 {
            let target = Int.random(in: 1...(200 + step), using: &random)
            let (name, payload): (String, [String: Any]) =
                switch Int.random(in: 0..<6, using: &random) {
                case 0: ("add", ["text": "new \(step)"])
                case 1: ("complete", ["number": target])
                case 2: ("reopen", ["number": target])
                case 3: ("edit", ["number": target, "text": "edited \(step)"])
                case 4: ("remove", ["number": target])
                default: ("undo", [:])
                }
            _ = try writer.dispatchAndWait(name, payload)
            try patched.catchUp(&patchedModels)
            try plain.catchUp(&plainModels)
            try #require(
                patchedModels.map(\.model) == plainModels.map(\.model), "after step \(step): \(name) \(payload)")
        }
        #expect(patchedModels[0].patchesApplied > 100)
        // One change in a list of ~200 rows travels as a few hundred bytes, not the whole list.
        #expect(patchedModels[0].largestPatchFrame < 512)
    }

    /// A patch-taking subscriber that stops reading falls behind; past the coalescing threshold
    /// its pending patch is replaced by the whole model, so when it reads again the updates
    /// still apply in order.
    @Test(.blocking(.long)) func aSubscriberThatFallsBehindStillConverges() throws {
        let daemon = try DaemonHarness()
        let idle = try WireClient(path: daemon.socketPath)
        try idle.hello(features: ["patch"])
        let list = try idle.follow("list")
        let writer = try daemon.greetedClient()
        // 15 imports of 200 items of ~1000 characters: each patch is ~200 KB, far past what
        // the daemon queues for a client before it coalesces.
        try writer.importLargeItems(groups: 15, filler: "p")
        var followers = [list]
        try idle.catchUp(&followers)
        #expect(followers[0].version == 15)
        #expect(followers[0].wholeModels > 1, "no pending patch was replaced by a whole model")
        let fresh = try daemon.greetedClient()
        #expect(followers[0].model == (try fresh.follow("list")).model)
        #expect(try daemon.stop() == 0)
    }
}
