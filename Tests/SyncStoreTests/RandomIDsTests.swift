import Testing

@testable import SyncStore

/// The ids acceptance draws come from a pool refilled a page at a time: across refills they stay
/// distinct version 4 UUIDs.
@Suite struct RandomIDsTests {
    @Test func idsAcrossSeveralRefillsAreDistinctVersion4UUIDs() {
        let ids = RandomIDs()
        let drawn = (0..<1000).map { _ in ids.next() }
        #expect(Set(drawn).count == 1000)
        for id in drawn {
            #expect(id.uuid.6 >> 4 == 4)
            #expect(id.uuid.8 >> 6 == 0b10)
        }
    }

    @Test func threadsDrawingAtOnceNeverGetTheSameID() async {
        let ids = RandomIDs()
        let drawn = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (0..<300).map { _ in ids.next().uuidString } } }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(Set(drawn).count == 1200)
    }
}
