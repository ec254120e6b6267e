import SyncProtocol
import Testing

@testable import SyncEngine

/// The outbound queue's rules for updates past its threshold: a whole model is left to be
/// encoded when the queue drains, in the place of the update it replaced; patches are kept
/// while only the write in flight is large.
@Suite struct OutboundQueueTests {
    private let threshold = 256

    @Test func theNewestModelKeepsThePlaceOfTheUpdateItReplacedBeforeLaterAcks() throws {
        var state = CountedState(values: ["a"])
        let hub = ViewHub<CountedState>()
        let first = hub.subscribe(
            CountedModel.subscriber, to: CountedModel.key, takesPatches: false, makeSource: CountedModel.source,
            state: state, version: 0)
        var queue = OutboundQueue(coalescingThreshold: 4096)
        let ack = { (version: UInt64) in ServerMessage.ack(id: Int64(version), version: version) }
        queue.append(ServerMessage.pong(id: 1).framed())
        let queued = queue.appendUpdate(
            ViewChange(model: first, patch: nil, base: 0), subscription: 1, version: 0, writingByteCount: 0)
        #expect(queued == .queued)
        queue.append(ack(0))
        for version in UInt64(1)...20 {
            state.values.append("b\(version)")
            // Under the threshold at first; from version 3 on a large write is in flight.
            let writing = version < 3 ? 0 : 5000
            hub.publish(state, version: version) { subscriber, change in
                queue.appendUpdate(
                    change, subscription: subscriber.subscription, version: version, writingByteCount: writing
                ).isStale
            }
            queue.append(ack(version))
        }
        let written = try decodedFrames(
            queue.drain { subscription in
                hub.newestModel(
                    of: ViewSubscriber(connectionID: 1, subscription: subscription), in: CountedModel.key, state: state,
                    version: 20
                )
                .map { ($0.version, $0.model.bytes) }
            })
        // Versions 0 to 2 were kept; version 3 made version 2's update the newest model slot,
        // right before ack 2, and every later one was absorbed by it: it carries version 20,
        // ahead of the acks of 2 to 20.
        #expect(
            written.map(\.typeName) == ["pong", "update", "ack", "update", "ack", "update"]
                + Array(repeating: "ack", count: 19))
        #expect(written.compactMap { $0.typeName == "update" ? $0.version : nil } == [0, 1, 20])
        let acked = written.compactMap { reply -> UInt64? in
            guard case .ack(_, let version) = reply else { return nil }
            return version
        }
        #expect(acked == Array(0...20))
    }

    @Test func aPatchIsKeptWhileOnlyTheWriteInFlightIsLarge() throws {
        let model = EncodedModel(bytes: Array("[]".utf8))
        var queue = OutboundQueue(coalescingThreshold: threshold)
        let patch = Array(#"[{"op":"add","path":"/0","value":"x"}]"#.utf8)
        // A large model is being written; the patches after it are small and each applies to
        // the one before, so they are all kept rather than becoming a whole model again.
        for version in UInt64(1)...3 {
            let outcome = queue.appendUpdate(
                ViewChange(model: model, patch: patch, base: version - 1), subscription: 1, version: version,
                writingByteCount: 10 * threshold)
            #expect(outcome == .queued)
        }
        let written = try decodedFrames(queue.drain { _ in nil })
        #expect(written.map(\.base) == [0, 1, 2])
    }

    @Test func aPatchBehindAFullQueueTurnsThePendingUpdateIntoTheNewestModel() throws {
        var queue = OutboundQueue(coalescingThreshold: threshold)
        let model = EncodedModel(bytes: Array("[]".utf8))
        let patch = Array(#"[{"op":"add","path":"/0","value":"x"}]"#.utf8)
        let first = queue.appendUpdate(
            ViewChange(model: model, patch: patch, base: 0), subscription: 1, version: 1, writingByteCount: 0)
        #expect(first == .queued)
        queue.append(ServerMessage.ack(id: 1, version: 1).framed())
        while queue.pendingByteCount <= threshold { queue.append(ServerMessage.pong(id: 2).framed()) }
        let second = queue.appendUpdate(
            ViewChange(model: model, patch: patch, base: 1), subscription: 1, version: 2, writingByteCount: 0)
        #expect(second == .absorbed)
        let written = try decodedFrames(
            queue.drain { subscription in subscription == 1 ? (2, Array(#"["x","x"]"#.utf8)) : nil })
        let update = try #require(written.first)
        #expect(
            update.typeName == "update" && update.version == 2 && update.base == nil,
            "the whole model, not a patch that would need the one it replaced")
    }

    @Test func aNewestModelOfASubscriptionGoneMeanwhileIsDropped() throws {
        var queue = OutboundQueue(coalescingThreshold: threshold)
        let model = EncodedModel(bytes: Array("[]".utf8))
        let outcome = queue.appendUpdate(
            ViewChange(model: model, patch: nil, base: 0), subscription: 7, version: 1, writingByteCount: 2 * threshold)
        #expect(outcome == .deferred)
        queue.append(ServerMessage.unsubscribed(id: 3, subscription: 7).framed())
        let written = try decodedFrames(queue.drain { _ in nil })
        #expect(written.map(\.typeName) == ["unsubscribed"])
        let left = queue.drain { _ in nil }
        #expect(left == nil, "nothing left")
    }

    @Test func acksShareOneBufferInOrderWithTheFramesAroundThem() throws {
        var queue = OutboundQueue(coalescingThreshold: threshold)
        let replies: [ServerMessage] = [
            .ack(id: 1, version: 10), .ack(id: -2, version: 11), .pong(id: 3), .ack(id: .max, version: .max),
        ]
        for reply in replies { queue.append(reply) }
        let expected = replies.flatMap { $0.framed() }
        #expect(queue.pendingByteCount == expected.count)
        #expect(queue.pendingReplyByteCount == expected.count)
        let first = try #require(queue.drain { _ in nil })
        #expect(Array(first) == expected)
        first.deallocate()
        #expect(queue.pendingByteCount == 0)

        queue.append(ServerMessage.ack(id: 5, version: 13))
        let model = EncodedModel(bytes: Array("[]".utf8))
        #expect(
            queue.appendUpdate(
                ViewChange(model: model, patch: nil, base: 0), subscription: 1, version: 14, writingByteCount: 0)
                == .queued)
        queue.append(ServerMessage.ack(id: 6, version: 14))
        let written = try decodedFrames(queue.drain { _ in nil })
        #expect(written.map(\.typeName) == ["ack", "update", "ack"])
        #expect(queue.drain { _ in nil } == nil, "nothing left")
    }

    @Test func aNewestModelSlotAfterAcksKeepsItsPlaceBetweenThem() throws {
        var queue = OutboundQueue(coalescingThreshold: threshold)
        let model = EncodedModel(bytes: Array("[]".utf8))
        queue.append(ServerMessage.ack(id: 1, version: 1))
        let outcome = queue.appendUpdate(
            ViewChange(model: model, patch: nil, base: 0), subscription: 7, version: 2, writingByteCount: 2 * threshold)
        #expect(outcome == .deferred)
        queue.append(ServerMessage.ack(id: 2, version: 2))
        let written = try decodedFrames(queue.drain { _ in (version: 2, model: model.bytes) })
        #expect(written.map(\.typeName) == ["ack", "update", "ack"])
        #expect(written.compactMap(\.version) == [2])
    }
}
