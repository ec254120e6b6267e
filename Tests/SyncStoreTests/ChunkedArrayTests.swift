import Foundation
import SyncProtocol
import SyncStore
import TestSupport
import Testing

@Suite struct ChunkedArrayTests {
    private typealias Numbers = ChunkedArray<Int>

    /// Checks the chunking rules: no empty chunk, none over capacity.
    private func expectWellFormed(_ array: Numbers, _ context: String) {
        #expect(
            array.chunks.allSatisfy { !$0.elements.isEmpty && $0.elements.count <= Numbers.chunkCapacity }, "\(context)"
        )
    }

    /// How many chunks of `new` are not chunks of `old` (by identity).
    private func newChunks(_ new: Numbers, comparedWith old: Numbers) -> Int {
        let oldChunks = Set(old.chunks.map(ObjectIdentifier.init))
        return new.chunks.count { !oldChunks.contains(ObjectIdentifier($0)) }
    }

    /// 2000 random changes, mirrored on a plain array: same elements after each, chunks within
    /// bounds, and each change makes at most two new chunks while the others stay shared.
    @Test(arguments: [7, 8] as [UInt64]) func randomChangesMatchAPlainArray(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var plain = Array(0..<1000)
        var chunked = Numbers(plain)
        expectWellFormed(chunked, "initial")
        for step in 0..<2000 {
            let before = chunked
            let operation = plain.isEmpty ? 0 : Int.random(in: 0..<4, using: &random)
            switch operation {
            case 0:
                let index = Int.random(in: 0...plain.count, using: &random)
                plain.insert(-step, at: index)
                chunked.insert(-step, at: index)
            case 1:
                let index = Int.random(in: 0..<plain.count, using: &random)
                #expect(chunked.remove(at: index) == plain.remove(at: index))
            case 2:
                let index = Int.random(in: 0..<plain.count, using: &random)
                plain[index] = step
                chunked[index] = step
            default:
                plain.append(step)
                chunked.append(step)
            }
            #expect(Array(chunked) == plain, "step \(step), operation \(operation)")
            #expect(chunked.count == plain.count)
            expectWellFormed(chunked, "step \(step)")
            #expect(
                newChunks(chunked, comparedWith: before) <= 2, "step \(step): a change rebuilt more than two chunks")
            #expect(
                before.count == chunked.count - [1, -1, 0, 1][operation],
                "the copy taken before the change kept its elements")
        }
    }

    @Test func replacingInAChunkNoOtherArrayHoldsKeepsTheChunkAndChangesNoCopy() {
        var array = Numbers(0..<600)
        let before = array.chunks.map(ObjectIdentifier.init)
        array.replace(at: 300, with: -1)
        #expect(array.chunks.map(ObjectIdentifier.init) == before, "a chunk held by one array alone changes in place")
        #expect(array[300] == -1)

        let copy = array
        let held = array.chunks[1]
        array.replace(at: 301, with: -2)
        #expect(array[301] == -2 && copy[301] == 301, "the copy keeps its element")
        #expect(held.elements[301 - 256] == 301, "a chunk another array holds is never changed")
        #expect(array.chunks[1] !== copy.chunks[1] && array.chunks[0] === copy.chunks[0])
        expectWellFormed(array, "after replacing")
    }

    @Test func removingEveryMatchKeepsChunksWithoutMatchesShared() {
        let before = Numbers(0..<2000)
        var after = before
        after.removeAll { $0 >= 600 && $0 < 700 && $0 % 2 == 0 }
        #expect(Array(after) == (0..<2000).filter { !($0 >= 600 && $0 < 700 && $0 % 2 == 0) })
        #expect(newChunks(after, comparedWith: before) == 1, "only the chunk holding 600..<700 changes")
        var unchanged = before
        unchanged.removeAll { $0 < 0 }
        #expect(
            unchanged.chunks.count == before.chunks.count
                && zip(unchanged.chunks, before.chunks).allSatisfy { $0 === $1 })
    }

    @Test func removingMostElementsAtOnceChunksAgain() {
        var array = Numbers(0..<5000)
        array.removeAll { $0 % 50 != 0 }
        #expect(Array(array) == Array(stride(from: 0, to: 5000, by: 50)))
        expectWellFormed(array, "after removeAll")
        #expect(array.chunks.count == 1, "100 elements left in \(array.chunks.count) chunks")
    }

    @Test func manyRemovalsJoinSmallChunks() {
        var array = Numbers(0..<5000)
        for value in stride(from: 4999, through: 0, by: -1) where value % 10 != 0 {
            array.remove(at: value)
        }
        #expect(Array(array) == Array(stride(from: 0, to: 5000, by: 10)))
        expectWellFormed(array, "after removals")
        #expect(array.chunks.count <= 8, "500 elements left in \(array.chunks.count) chunks")
    }

    @Test func equalityIgnoresHowElementsAreChunked() {
        var split = Numbers(0..<300)
        split.insert(-1, at: 10)
        split.remove(at: 10)
        #expect(split.chunks.count != Numbers(0..<300).chunks.count || split.chunks[0] !== Numbers(0..<300).chunks[0])
        #expect(split == Numbers(0..<300))
        #expect(split != Numbers(1..<301))
        #expect(Numbers([]) == [])
    }

    @Test func encodesAsAPlainJSONArrayAndDecodesBack() throws {
        let array = Numbers(0..<600)
        let bytes = try WireJSON.encode(array)
        #expect(bytes == (try WireJSON.encode(Array(0..<600))))
        let decoded = try WireJSON.decode(Numbers.self, from: bytes)
        #expect(decoded == array)
        #expect(decoded.chunks.map(\.elements.count) == [256, 256, 88])
    }

    /// Rows derived chunk by chunk: only the chunks a change replaced are derived again.
    @Test func derivationsReuseTheValuesOfUnchangedChunks() {
        var array = Numbers(0..<2000)
        var derived = 0
        let first = ChunkDerivation(array, reusing: nil) { (elements) -> Int in
            derived += 1
            return elements.reduce(0, +)
        }
        #expect(derived == array.chunks.count)
        array[1500] = 0
        array.insert(7, at: 0)
        let second = ChunkDerivation(array, reusing: first) { (elements) -> Int in
            derived += 1
            return elements.reduce(0, +)
        }
        #expect(
            derived == first.values.count + 3,
            "the two halves of the first chunk (full, so split by the insert) and the chunk of 1500")
        let derivedTotal: Int = second.values.reduce(0, +)
        let total: Int = array.reduce(0, +)
        #expect(derivedTotal == total)
    }

    /// Changes between chunked arrays, applied to the first one, give the second; the indices
    /// of each run of changed chunks are right once the runs before it are applied. The arrays
    /// grow from empty, lose runs of elements (`removeAll`, which may chunk again) and empty out.
    /// The same holds for the changes between the plain arrays.
    @Test(arguments: [(3, 700), (4, 0)] as [(UInt64, Int)]) func arrayChangesTurnOneArrayIntoTheOther(
        seed: UInt64, startCount: Int
    ) {
        var random = SeededRandom(seed: seed)
        var array = Numbers(0..<startCount)
        for step in 0..<300 {
            let old = array
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<12, using: &random) {
                case 0...3: for _ in 0..<Int.random(in: 1...300, using: &random) { array.append(10_000 + step) }
                case 4, 5: array.insert(20_000 + step, at: Int.random(in: 0...array.count, using: &random))
                case 6, 7: if !array.isEmpty { array.remove(at: Int.random(in: 0..<array.count, using: &random)) }
                case 8, 9: if !array.isEmpty { array[Int.random(in: 0..<array.count, using: &random)] = -step }
                case 10:
                    let low = Int.random(in: 0..<max(1, array.count), using: &random)
                    let removed = Set(array.indices.filter { $0 >= low && $0 < low + 400 }.map { array[$0] })
                    array.removeAll { removed.contains($0) }
                default: if step % 40 == 0 { array.removeAll { _ in true } }
                }
            }
            expectWellFormed(array, "step \(step)")
            var patched = Array(old)
            ModelChangeApplier.apply(
                ModelChange.arrayChanges(from: old, to: array, at: ["items"]), toArray: "items", &patched)
            #expect(patched == Array(array), "step \(step)")
            var plainPatched = Array(old)
            ModelChangeApplier.apply(
                ModelChange.arrayChanges(from: Array(old), to: Array(array), at: ["items"]), toArray: "items",
                &plainPatched)
            #expect(plainPatched == Array(array), "step \(step), plain arrays")
        }
    }
}
