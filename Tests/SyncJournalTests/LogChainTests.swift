import Testing

@testable import SyncJournal

/// The shared log's hash chain, checked against digests computed independently (Python's
/// hashlib over the documented encoding), so a change of the encoding cannot pass unnoticed:
/// every daemon of a shared log must compute the same chain.
@Suite struct LogChainTests {
    private let numbered = JournalEntry(
        version: 1, name: "add", payload: Array(#"{"text":"a"}"#.utf8), acceptedAt: 1000, peerUID: 1000, peerPID: 42,
        clientID: "c1", clientSequence: 7, host: "alpha")
    private let bare = JournalEntry(
        version: 2, name: "remove", payload: Array(#"{"number":1}"#.utf8), acceptedAt: 2000, peerUID: nil, peerPID: nil)

    @Test func chainsEveryFieldAsDocumented() {
        let first = LogChain.origin.appending(numbered)
        #expect(first.version == 1)
        #expect(first.hexHash == "3410467931f3b42da1c93edd286d372dc0419825a9b188c5099a551700bbe133")
        let second = first.appending(bare)
        #expect(second.version == 2)
        #expect(second.hexHash == "5dcb94650b18f5c7b3237c11d05cf22cbac050049b50f27288447c52652f62eb")
    }

    @Test func anyChangedFieldChangesTheHash() {
        let reference = LogChain.origin.appending(numbered).hash
        var variants: [JournalEntry] = []
        for change in 0..<9 {
            var entry = numbered
            switch change {
            case 0: entry.version = 3
            case 1: entry.name = "ad"
            case 2: entry.payload = Array(#"{"text":"b"}"#.utf8)
            case 3: entry.acceptedAt = 1001
            case 4: entry.peerUID = nil
            case 5: entry.peerPID = 43
            case 6: entry.clientID = "c2"
            case 7: entry.clientSequence = 8
            default: entry.host = nil
            }
            variants.append(entry)
        }
        for entry in variants { #expect(LogChain.origin.appending(entry).hash != reference, "\(entry)") }
        #expect(
            LogChain(version: 0, hash: [UInt8](repeating: 1, count: 32)).appending(numbered).hash != reference,
            "the previous hash counts")
    }

    @Test func hexRoundTripsAndRejectsNonHex() {
        let hash = LogChain.origin.appending(bare).hash
        #expect(LogChain.bytes(hex: LogChain.hex(hash)) == hash)
        #expect(LogChain.bytes(hex: "\\x" + LogChain.hex(hash).uppercased()) == hash, "PostgreSQL's bytea output")
        #expect(LogChain.bytes(hex: "abc") == nil)
        #expect(LogChain.bytes(hex: "zz") == nil)
    }
}
