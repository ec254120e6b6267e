import SyncProtocol
import Testing

@testable import SyncEngine

/// What a client that stops reading costs the daemon: the hub, the view source and each
/// client's outbound queue wired as the server wires them (`Server.publish` hands each change
/// to the connection's queue, which says whether the subscriber is stale; the drain asks the
/// hub for the newest model), with a model that counts its computations and encodings.
@Suite struct StaleSubscriberCostTests {
    /// One client's side: its queue and the write in flight, which a client that does not
    /// read never completes.
    private struct Client {
        let subscriber: ViewSubscriber
        var queue = OutboundQueue(coalescingThreshold: 256)
        var writing: UnsafeMutableRawBufferPointer?

        init(subscription: Int64) {
            subscriber = ViewSubscriber(connectionID: Int(subscription), subscription: subscription)
        }

        /// What `Connection.enqueueUpdate` does: queue, and say whether the subscriber is stale.
        mutating func take(_ change: ViewChange, version: UInt64) -> Bool {
            queue.appendUpdate(
                change, subscription: subscriber.subscription, version: version, writingByteCount: writing?.count ?? 0
            ).isStale
        }

        /// What is queued goes into a write, and the client reads no more: it never completes.
        mutating func stopReading() {
            writing = queue.drain { _ in nil }
        }

        /// The client reads: the write in flight completes, then everything queued is written
        /// (what `Connection.flush` does once the socket took the previous bytes), the newest
        /// models at `state` (version `version`) filled in. Returns the frames read.
        mutating func read(_ hub: ViewHub<CountedState>, state: CountedState, version: UInt64) throws
            -> [ServerReply]
        {
            let completed = try decodedFrames(writing)
            writing = nil
            let subscriber = subscriber
            return completed
                + (try decodedFrames(
                    queue.drain { _ in
                        hub.newestModel(of: subscriber, in: CountedModel.key, state: state, version: version).map {
                            ($0.version, $0.model.bytes)
                        }
                    }))
        }

        func release() { writing?.deallocate() }
    }

    private func publish(
        _ hub: ViewHub<CountedState>, _ state: CountedState, version: UInt64, to clients: inout [Client]
    ) {
        hub.publish(state, version: version) { subscriber, change in
            clients[clients.firstIndex { $0.subscriber == subscriber }!].take(change, version: version)
        }
    }

    private func subscribe(
        _ hub: ViewHub<CountedState>, _ client: inout Client, takesPatches: Bool = false, state: CountedState,
        version: UInt64
    ) {
        let model = hub.subscribe(
            client.subscriber, to: CountedModel.key, takesPatches: takesPatches, makeSource: CountedModel.source,
            state: state, version: version)
        _ = client.take(ViewChange(model: model, patch: nil, base: version), version: version)
    }

    /// 50 values of 60 characters: a model of about 3 KB, past the threshold (and big enough
    /// to be patched).
    private func initialState() -> CountedState {
        CountedState(values: (1...50).map { "value \($0) " + String(repeating: "v", count: 50) })
    }

    @Test func aPairWhoseOnlySubscriberStoppedReadingIsNotComputedNorEncodedPerVersion() throws {
        var state = initialState()
        let hub = ViewHub<CountedState>()
        var clients = [Client(subscription: 1)]
        defer { for client in clients { client.release() } }
        subscribe(hub, &clients[0], state: state, version: 0)
        clients[0].stopReading()
        let (computed, encoded) = (state.counter.computed, state.counter.encoded)
        for version in UInt64(1)...1000 {
            state.values.append("value \(version + 50)")
            publish(hub, state, version: version, to: &clients)
        }
        // Version 1 was computed and found the subscriber stale; nothing after it.
        #expect(
            state.counter.computed == computed + 1,
            "\(state.counter.computed - computed) computations for 1000 versions")
        #expect(
            state.counter.encoded == encoded,
            "\(state.counter.encoded - encoded) encodings for a client that read nothing")

        // The client reads: the newest model is computed and encoded once, and sent.
        let caughtUp = try clients[0].read(hub, state: state, version: 1000)
        #expect(caughtUp.map(\.version) == [0, 1000])
        #expect(state.counter.computed == computed + 2)
        #expect(state.counter.encoded == encoded + 1)
        // Then it follows every change again.
        state.values.append("after")
        publish(hub, state, version: 1001, to: &clients)
        #expect(try clients[0].read(hub, state: state, version: 1001).map(\.version) == [1001])
    }

    @Test func aReadingSubscriberOfTheSamePairGetsEveryChangeAndTheStaleOneCostsNoEncoding() throws {
        var state = initialState()
        let hub = ViewHub<CountedState>()
        var clients = [Client(subscription: 1), Client(subscription: 2)]
        defer { for client in clients { client.release() } }
        for index in clients.indices { subscribe(hub, &clients[index], state: state, version: 0) }
        clients[0].stopReading()
        _ = try clients[1].read(hub, state: state, version: 0)
        let encoded = state.counter.encoded
        var received: [UInt64] = []
        for version in UInt64(1)...100 {
            state.values.append("value \(version + 50)")
            publish(hub, state, version: version, to: &clients)
            received += try clients[1].read(hub, state: state, version: version).compactMap(\.version)
        }
        #expect(received == Array(1...100), "the reading subscriber gets every version")
        #expect(state.counter.encoded == encoded + 100, "one encoding per version, for the reader alone")
        // The stale one gets the encoding the reader already paid for.
        #expect(try clients[0].read(hub, state: state, version: 100).map(\.version) == [0, 100])
        #expect(state.counter.encoded == encoded + 100)
    }

    @Test func aNewSubscriberOfAPairLeftOutdatedGetsTheCurrentModel() throws {
        var state = initialState()
        let hub = ViewHub<CountedState>()
        var clients = [Client(subscription: 1), Client(subscription: 2)]
        defer { for client in clients { client.release() } }
        subscribe(hub, &clients[0], state: state, version: 0)
        clients[0].stopReading()
        for version in UInt64(1)...10 {
            state.values.append("added \(version)")
            publish(hub, state, version: version, to: &clients)
        }
        let model = hub.subscribe(
            clients[1].subscriber, to: CountedModel.key, takesPatches: false, makeSource: CountedModel.source,
            state: state, version: 10)
        #expect(try WireJSON.decode([String].self, from: model.bytes).last == "added 10")
        #expect(try clients[0].read(hub, state: state, version: 10).map(\.version) == [0, 10])
    }

    @Test func aPatchTakerThatCaughtUpIsPatchedFromTheModelItWasSent() throws {
        var state = initialState()
        let hub = ViewHub<CountedState>()
        var clients = [Client(subscription: 1)]
        defer { for client in clients { client.release() } }
        subscribe(hub, &clients[0], takesPatches: true, state: state, version: 0)
        clients[0].stopReading()
        for version in UInt64(1)...30 {
            state.values.append("added \(version)")
            publish(hub, state, version: version, to: &clients)
        }
        // The first small patches were queued as they came; once the queue held more than its
        // threshold the pending one became the newest model, whole.
        let caughtUp = try clients[0].read(hub, state: state, version: 30)
        #expect(caughtUp.count < 30)
        #expect(caughtUp.last?.version == 30 && caughtUp.last?.base == nil, "the newest model, whole")
        state.values.append("added 31")
        publish(hub, state, version: 31, to: &clients)
        let patched = try clients[0].read(hub, state: state, version: 31)
        #expect(patched.map(\.version) == [31])
        #expect(patched.first?.base == 30, "a patch on the model it holds")
    }
}
