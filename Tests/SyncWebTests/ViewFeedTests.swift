import SyncProtocol
import Testing

@testable import SyncWeb

/// The newest model of a daemon subscription and the patches a browser is sent from whatever
/// version it holds.
@Suite struct ViewFeedTests {
    @Test func aBrowserWithNothingGetsTheWholeModel() throws {
        var feed = ViewFeed(keep: 4)
        let nothing = feed.delta(from: nil)
        #expect(nothing == nil)
        feed.receive(version: 3, model: listModel(["milk"]))
        let maybeDelta = feed.delta(from: nil)
        let delta = try #require(maybeDelta)
        #expect(delta.version == 3)
        #expect(delta.base == nil)
        #expect(try decoded(delta.body) == listModel(["milk"]))
        let upToDate = feed.delta(from: 3)
        #expect(upToDate == nil)
    }

    @Test func aBrowserBehindGetsOnePatchToTheNewestThatApplies() throws {
        var feed = ViewFeed(keep: 4)
        let held = (1...20).map { "item \($0)" }
        feed.receive(version: 1, model: listModel(held))
        feed.receive(version: 2, model: listModel(held + ["eggs"]))
        feed.receive(version: 3, model: listModel(held + ["eggs", "tea"]))
        let maybeDelta = feed.delta(from: 1)
        let delta = try #require(maybeDelta)
        #expect(delta.version == 3)
        #expect(delta.base == 1)
        let patch = try WireJSON.decode(JSONPatch.self, from: delta.body)
        #expect(try patch.apply(to: listModel(held)) == listModel(held + ["eggs", "tea"]))
    }

    @Test func resumingFromAVersionOutOfReachGetsTheWholeModel() throws {
        var feed = ViewFeed(keep: 2)
        for version in 1...5 {
            feed.receive(version: UInt64(version), model: listModel((1...version).map { "item \($0)" }))
        }
        #expect(feed.canResume(from: 5))
        #expect(feed.canResume(from: 3))
        #expect(!feed.canResume(from: 2))
        let maybeDelta = feed.delta(from: 2)
        let delta = try #require(maybeDelta)
        #expect(delta.base == nil)
        #expect(try decoded(delta.body) == listModel((1...5).map { "item \($0)" }))
    }

    @Test func anOlderVersionFromTheDaemonIsIgnored() throws {
        var feed = ViewFeed(keep: 4)
        feed.receive(version: 4, model: listModel(["new"]))
        feed.receive(version: 2, model: listModel(["old"]))
        #expect(feed.newest?.version == 4)
        let newest = feed.delta(from: nil)
        #expect(try decoded(try #require(newest).body) == listModel(["new"]))
    }

    @Test func patchesLongerThanTheModelAreSentAsTheModel() throws {
        var feed = ViewFeed(keep: 4)
        let long = (1...5).map { "a long text, number \($0), that the next model replaces" }
        feed.receive(version: 1, model: listModel(long))
        feed.receive(version: 2, model: listModel(long.map { $0.uppercased() }))
        feed.receive(version: 3, model: listModel([]))
        let maybeDelta = feed.delta(from: 1)
        let delta = try #require(maybeDelta)
        #expect(delta.version == 3)
        #expect(delta.base == nil)
        #expect(try decoded(delta.body) == listModel([]))
    }
}
