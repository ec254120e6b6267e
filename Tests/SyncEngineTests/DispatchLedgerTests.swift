import Testing

@testable import SyncEngine

/// The dispatch ledger on its own: verdicts, the window, the client limit, rolling back a failed
/// commit, and the snapshot encoding.
@Suite struct DispatchLedgerTests {
    private func key(_ clientID: String, _ sequence: UInt64) -> DispatchLedger.Key {
        DispatchLedger.Key(clientID: clientID, sequence: sequence)
    }

    @Test func newAppliedAndStaleSequences() {
        var ledger = DispatchLedger(windowSize: 4, clientLimit: 10)
        #expect(ledger.verdict(for: key("a", 1)) == .new)
        ledger.record(key("a", 1), version: 10, durableThrough: 10)
        ledger.record(key("a", 3), version: 12, durableThrough: 12)
        #expect(ledger.verdict(for: key("a", 1)) == .applied(version: 10))
        #expect(ledger.verdict(for: key("a", 3)) == .applied(version: 12))
        #expect(
            ledger.verdict(for: key("a", 2)) == .stale(highest: 3), "a skipped sequence is stale, never applied late")
        #expect(ledger.verdict(for: key("a", 4)) == .new)
        #expect(ledger.verdict(for: key("b", 1)) == .new, "client ids are separate")
        #expect(ledger.lastSequence(of: "a", durableThrough: 12) == 3)
        #expect(ledger.lastSequence(of: "b", durableThrough: 12) == 0)
    }

    @Test func theWindowKeepsTheNewestDurablePairs() {
        var ledger = DispatchLedger(windowSize: 3, clientLimit: 10)
        for sequence in UInt64(1)...10 {
            ledger.record(key("a", sequence), version: sequence, durableThrough: sequence)
        }
        #expect(ledger.clients["a"]?.recent.map(\.sequence) == [8, 9, 10])
        #expect(ledger.clients["a"]?.floor == 7)
        #expect(ledger.verdict(for: key("a", 7)) == .stale(highest: 10))
        #expect(ledger.verdict(for: key("a", 1)) == .stale(highest: 10))
        #expect(ledger.verdict(for: key("a", 8)) == .applied(version: 8))
    }

    @Test func pendingPairsStayInTheWindowUntilDurable() {
        var ledger = DispatchLedger(windowSize: 2, clientLimit: 10)
        for sequence in UInt64(1)...6 { ledger.record(key("a", sequence), version: sequence, durableThrough: 2) }
        #expect(
            ledger.clients["a"]?.recent.map(\.sequence) == [1, 2, 3, 4, 5, 6],
            "nothing past version 2 is durable, so nothing leaves")
        #expect(ledger.lastSequence(of: "a", durableThrough: 2) == 2)
        ledger.record(key("a", 7), version: 7, durableThrough: 5)
        #expect(
            ledger.clients["a"]?.recent.map(\.sequence) == [4, 5, 6, 7],
            "two durable pairs (4, 5) stay, and everything pending")
        #expect(ledger.clients["a"]?.floor == 3)
    }

    @Test func forgettingAFailedCommitLeavesExactlyTheDurablePairs() {
        var ledger = DispatchLedger(windowSize: 2, clientLimit: 10)
        for sequence in UInt64(1)...4 { ledger.record(key("a", sequence), version: sequence, durableThrough: sequence) }
        ledger.record(key("b", 1), version: 5, durableThrough: 4)
        for sequence in UInt64(5)...9 { ledger.record(key("a", sequence), version: sequence + 1, durableThrough: 4) }
        ledger.forget(after: 4)
        #expect(
            ledger.clients["a"]
                == DispatchLedger.Client(
                    floor: 2, recent: [.init(sequence: 3, version: 3), .init(sequence: 4, version: 4)]))
        #expect(ledger.clients["b"] == nil, "a client with nothing durable is forgotten")
        #expect(ledger.verdict(for: key("a", 5)) == .new, "a lost dispatch applies when resent")
        #expect(ledger.verdict(for: key("a", 4)) == .applied(version: 4))
        #expect(ledger.verdict(for: key("a", 2)) == .stale(highest: 4))
    }

    @Test func theClientWhoseLastActionIsOldestIsEvicted() {
        var ledger = DispatchLedger(windowSize: 4, clientLimit: 3)
        ledger.record(key("a", 1), version: 1, durableThrough: 1)
        ledger.record(key("b", 1), version: 2, durableThrough: 2)
        ledger.record(key("c", 1), version: 3, durableThrough: 3)
        ledger.record(key("a", 2), version: 4, durableThrough: 4)
        ledger.record(key("d", 1), version: 5, durableThrough: 5)
        #expect(Set(ledger.clients.keys) == ["a", "c", "d"], "b acted least recently (a acted again)")
        ledger.record(key("e", 1), version: 6, durableThrough: 6)
        #expect(Set(ledger.clients.keys) == ["a", "d", "e"])
        #expect(ledger.verdict(for: key("b", 1)) == .new, "an evicted client's resend is new: the documented limit")
    }

    @Test func evictionStaysBoundedOverManyClients() {
        var ledger = DispatchLedger(windowSize: 1, clientLimit: 100)
        for version in UInt64(1)...20_000 {
            let clientID = "c\(version % 150)"
            ledger.record(key(clientID, version), version: version, durableThrough: version)
            #expect(ledger.clientCount <= 100)
        }
        let kept = Set(ledger.clients.keys)
        #expect(kept == Set((19_901...20_000).map { "c\($0 % 150)" }), "the 100 most recently active")
    }

    @Test func aRepeatedSequenceInTheJournalStartsTheClientOver() {
        var ledger = DispatchLedger(windowSize: 4, clientLimit: 10)
        ledger.record(key("a", 5), version: 1, durableThrough: 1)
        ledger.record(key("a", 2), version: 2, durableThrough: 2)
        #expect(ledger.clients["a"] == DispatchLedger.Client(floor: 0, recent: [.init(sequence: 2, version: 2)]))
    }

    @Test func aSnapshotRoundTripsAndKeepsTheEvictionOrder() throws {
        var ledger = DispatchLedger(windowSize: 2, clientLimit: 3)
        for (version, clientID) in ["x", "y", "x", "z", "x"].enumerated() {
            let sequence = UInt64(version + 1)
            ledger.record(key(clientID, sequence), version: sequence, durableThrough: sequence)
        }
        let bytes = ledger.encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"clients":[{"floor":0,"id":"y","runs":[2,2,1]},{"floor":0,"id":"z","runs":[4,4,1]},{"floor":1,"id":"x","runs":[2,3,1,2,2,1]}]}"#
        )
        var decoded = try DispatchLedger(decoding: bytes, windowSize: 2, clientLimit: 3)
        #expect(decoded == ledger)
        decoded.record(key("w", 1), version: 6, durableThrough: 6)
        #expect(Set(decoded.clients.keys) == ["z", "x", "w"], "y, the oldest, goes first")
        let smaller = try DispatchLedger(decoding: bytes, windowSize: 1, clientLimit: 2)
        #expect(Set(smaller.clients.keys) == ["z", "x"])
        #expect(smaller.clients["x"] == DispatchLedger.Client(floor: 3, recent: [.init(sequence: 5, version: 5)]))
    }

    @Test func anIDOnlyAHandEditedJournalCouldHoldIsEscaped() throws {
        var ledger = DispatchLedger()
        ledger.record(key(#"a"b\"#, 1), version: 1, durableThrough: 1)
        let bytes = ledger.encoded()
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"clients":[{"floor":0,"id":"a\"b\\","runs":[1,1,1]}]}"#)
        #expect(try DispatchLedger(decoding: bytes, windowSize: 256, clientLimit: 10_000) == ledger)
        #expect(
            try DispatchLedger(decoding: DispatchLedger().encoded(), windowSize: 256, clientLimit: 10_000)
                == DispatchLedger())
    }

    @Test func pipelinedDispatchesAreWrittenAsRuns() throws {
        var ledger = DispatchLedger(windowSize: 256, clientLimit: 10)
        // Two clients, each applying bursts of 4 pipelined dispatches in turn.
        for burst in UInt64(0)..<3 {
            for (offset, clientID) in ["a", "b"].enumerated() {
                for step in UInt64(1)...4 {
                    let version = burst * 8 + UInt64(offset) * 4 + step
                    ledger.record(key(clientID, burst * 4 + step), version: version, durableThrough: version)
                }
            }
        }
        let bytes = ledger.encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"clients":[{"floor":0,"id":"a","runs":[1,1,4,1,5,4,1,5,4]},{"floor":0,"id":"b","runs":[1,5,4,1,5,4,1,5,4]}]}"#
        )
        #expect(try DispatchLedger(decoding: bytes, windowSize: 256, clientLimit: 10) == ledger)
    }

    @Test(arguments: 1...13)
    func runsDecodeToTheSameWindowAsEveryPairListed(windowSize: Int) throws {
        var ledger = DispatchLedger(windowSize: 100, clientLimit: 10)
        let versions: [UInt64] = [3, 4, 5, 9, 10, 12, 20, 21, 22, 23, 30, 31]
        for (index, version) in versions.enumerated() {
            ledger.record(key("a", UInt64(index) + 2), version: version, durableThrough: version)
        }
        let pairs = versions.enumerated().map { "\($0.offset + 2),\($0.element)" }.joined(separator: ",")
        let listed = #"{"clients":[{"floor":0,"id":"a","recent":["# + pairs + "]}]}"
        let fromRuns = try DispatchLedger(decoding: ledger.encoded(), windowSize: windowSize, clientLimit: 10)
        let fromPairs = try DispatchLedger(decoding: Array(listed.utf8), windowSize: windowSize, clientLimit: 10)
        #expect(fromRuns == fromPairs)
        #expect(fromRuns.clients["a"]?.recent.count == min(windowSize, versions.count))
    }

    @Test func aHugeRunExpandsOnlyTheWindow() throws {
        let json = #"{"clients":[{"floor":7,"id":"a","runs":[1,1,1000000000000]}]}"#
        let ledger = try DispatchLedger(decoding: Array(json.utf8), windowSize: 2, clientLimit: 4)
        #expect(
            ledger.clients["a"]
                == DispatchLedger.Client(
                    floor: 1_000_000_000_005,
                    recent: [
                        .init(sequence: 1_000_000_000_006, version: 999_999_999_999),
                        .init(sequence: 1_000_000_000_007, version: 1_000_000_000_000),
                    ]))
    }

    @Test(arguments: [
        #"{"clients":[{"floor":0,"id":"a","runs":[1,1]}]}"#, #"{"clients":[{"floor":0,"id":"a","runs":[]}]}"#,
        #"{"clients":[{"floor":0,"id":"a","runs":[0,1,1]}]}"#, #"{"clients":[{"floor":0,"id":"a","runs":[1,0,1]}]}"#,
        #"{"clients":[{"floor":0,"id":"a","runs":[1,1,0]}]}"#,
        #"{"clients":[{"floor":0,"id":"a","runs":[1,18446744073709551615,2]}]}"#,
        #"{"clients":[{"floor":18446744073709551615,"id":"a","runs":[1,1,1]}]}"#,
        #"{"clients":[{"floor":0,"id":"a","runs":[1,1,1],"recent":[1,1]}]}"#, #"{"clients":[{"floor":0,"id":"a"}]}"#,
        #"{"clients":[{"floor":0,"id":"a","recent":[1]}]}"#, #"{"clients":[{"floor":0,"id":"a","recent":[]}]}"#,
        #"{"clients":[{"floor":0,"id":"a","recent":[2,5,1,6]}]}"#,
        #"{"clients":[{"floor":3,"id":"a","recent":[2,5]}]}"#,
        #"{"clients":[{"floor":0,"id":"a","recent":[1,5,2,5]}]}"#, #"{"clients":[{"id":"a"}]}"#, "[]",
    ])
    func aBrokenSnapshotLedgerIsRefused(json: String) {
        #expect(throws: (any Error).self) {
            try DispatchLedger(decoding: Array(json.utf8), windowSize: 4, clientLimit: 4)
        }
    }
}
