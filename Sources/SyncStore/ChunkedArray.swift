/// An array kept in shared, immutable chunks, so that a state holding a long one stays cheap to
/// change: a copy shares every chunk, and a change replaces only the chunk it touches.
///
/// A state value is copied once per commit (the journal and the subscribers keep the version they
/// were given while the store moves on), and a plain `Array` then copies all its elements on the
/// next change. Here that copy is of the chunk list, and the change rebuilds one chunk of at most
/// `chunkCapacity` elements (a chunk no other array holds is changed in place: the actions of
/// one commit that touch the same chunk copy it once). A chunk never changes once shared, so a
/// chunk that is the same object (`===`) in two arrays holds the same elements in both: view models reuse what they derived from
/// it (`ChunkDerivation`) and diffs skip it (`ModelChange.arrayChanges`).
///
/// Indices are positions, as in an array. Reading by position finds the chunk by binary search;
/// iterating walks the chunks in order. Its code is inlinable, so that callers in other modules
/// run it specialized for their element type rather than through generic metadata per element.
public struct ChunkedArray<Element: Sendable>: Sendable {
    /// A run of consecutive elements. Immutable once shared: a change to a chunk that another
    /// array (a copy of the state, a view model's derivation) also holds makes a new chunk; only
    /// a chunk held by this array alone is changed in place (`replace(at:with:)`).
    public final class Chunk: @unchecked Sendable {
        // @unchecked: `storage` changes only in `ChunkedArray.replace(at:with:)` while the array
        // holds the only reference to the chunk, so no other array, state or thread sees it.
        // For the same reason no access to it can overlap a change: its accesses are not checked
        // at run time (a check on every element read, six per search of a short list).
        @usableFromInline
        @exclusivity(unchecked)
        var storage: [Element]

        /// The elements, in order. May be empty only in arrays built from derived chunks.
        @inlinable
        public var elements: [Element] { storage }

        /// A chunk holding `elements`.
        @inlinable
        public init(_ elements: [Element]) {
            storage = elements
        }
    }

    /// The most elements a chunk gets from appends and inserts; a fuller chunk is split.
    @inlinable
    public static var chunkCapacity: Int { 256 }

    /// The chunks, in order.
    @inlinable
    public var chunks: [Chunk] { storedChunks }
    /// The chunks, none empty unless built by `init(chunks:)`.
    @usableFromInline
    var storedChunks: [Chunk]
    /// For each chunk, the position just past its last element.
    @usableFromInline
    var ends: [Int]

    /// An array holding `elements`, in full chunks.
    @inlinable
    public init<S: Sequence<Element>>(_ elements: S) {
        self.init(splitting: Array(elements))
    }

    /// An array holding `all`, in full chunks; `all` itself is the one chunk of a short array.
    /// A plain loop: this runs unspecialized for every decoded array (a model's rows), where
    /// each generic call costs a lookup of its types' metadata.
    @inlinable
    init(splitting all: [Element]) {
        let capacity = Self.chunkCapacity
        guard all.count > capacity else {
            storedChunks = all.isEmpty ? [] : [Chunk(all)]
            ends = all.isEmpty ? [] : [all.count]
            return
        }
        var chunks: [Chunk] = []
        var ends: [Int] = []
        let chunkCount = (all.count + capacity - 1) / capacity
        chunks.reserveCapacity(chunkCount)
        ends.reserveCapacity(chunkCount)
        var start = 0
        while start < all.count {
            let end = Swift.min(start + capacity, all.count)
            chunks.append(Chunk(Array(all[start..<end])))
            ends.append(end)
            start = end
        }
        storedChunks = chunks
        self.ends = ends
    }

    /// An array made of these chunks, shared as they are (a view model's rows, each chunk derived
    /// from a chunk of the state).
    @inlinable
    public init(chunks: [Chunk]) {
        storedChunks = chunks
        var end = 0
        ends = chunks.map { chunk in
            end += chunk.elements.count
            return end
        }
    }

    /// The chunk holding position `index` and the position within it.
    @inlinable
    func location(of index: Int) -> (chunk: Int, offset: Int) {
        precondition(index >= 0 && index < count, "ChunkedArray index \(index) out of range 0..<\(count)")
        var low = 0
        var high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > index { high = middle } else { low = middle + 1 }
        }
        return (low, index - (low == 0 ? 0 : ends[low - 1]))
    }

    /// The position of the first element of chunk `chunk`.
    @inlinable
    func start(ofChunk chunk: Int) -> Int {
        chunk == 0 ? 0 : ends[chunk - 1]
    }

    /// For each chunk of `new`, the position of the same chunk (the same object) in `old`, or
    /// `nil` for a new chunk. Chunks are never reordered, so matches only go forward.
    ///
    /// The chunks both share at the start and at the end are matched first by comparing objects
    /// in place; only what lies between (where changes were made) goes through a table.
    @inlinable
    static func matches(from old: [Chunk], to new: [Chunk]) -> [Int?] {
        var head = 0
        while head < old.count, head < new.count, old[head] === new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] === new[new.count - 1 - tail]
        { tail += 1 }
        var result: [Int?] = []
        result.reserveCapacity(new.count)
        for index in 0..<head { result.append(index) }
        let oldMiddle = head..<old.count - tail
        var positions: [ObjectIdentifier: Int] = [:]
        if oldMiddle.count > 0, new.count - tail > head {
            positions.reserveCapacity(oldMiddle.count)
            for index in oldMiddle { positions[ObjectIdentifier(old[index])] = index }
        }
        var next = head
        for chunk in new[head..<new.count - tail] {
            if let index = positions[ObjectIdentifier(chunk)], index >= next {
                result.append(index)
                next = index + 1
            } else {
                result.append(nil)
            }
        }
        for index in old.count - tail..<old.count { result.append(index) }
        return result
    }

    /// Replaces chunks `range` with `replacement` and recomputes the ends from there on.
    @inlinable
    mutating func replaceChunks(_ range: Range<Int>, with replacement: [Chunk]) {
        storedChunks.replaceSubrange(range, with: replacement.filter { !$0.elements.isEmpty })
        var end = start(ofChunk: range.lowerBound)
        ends.removeSubrange(range.lowerBound...)
        for chunk in storedChunks[range.lowerBound...] {
            end += chunk.elements.count
            ends.append(end)
        }
    }
}

extension ChunkedArray: RandomAccessCollection {
    /// An iterator that walks the chunks in order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline
        let chunks: [Chunk]
        @usableFromInline
        var chunk = 0
        @usableFromInline
        var offset = 0

        @inlinable
        init(_ chunks: [Chunk]) {
            self.chunks = chunks
        }

        @inlinable
        public mutating func next() -> Element? {
            while chunk < chunks.count {
                let elements = chunks[chunk].elements
                if offset < elements.count {
                    offset += 1
                    return elements[offset - 1]
                }
                chunk += 1
                offset = 0
            }
            return nil
        }
    }

    @inlinable
    public var startIndex: Int { 0 }
    @inlinable
    public var endIndex: Int { ends.last ?? 0 }
    @inlinable
    public var count: Int { endIndex }
    @inlinable
    public var isEmpty: Bool { endIndex == 0 }

    /// The element at `index`; setting it rebuilds its chunk (`replace(at:with:)`). Not a
    /// `MutableCollection`: its element-by-element algorithms (sorting, swapping) would rebuild
    /// a chunk per step. Read in place: `items[i].number` copies the number, not the element
    /// (and its texts' references, retained and released again).
    @inlinable
    public subscript(index: Int) -> Element {
        _read {
            let (chunk, offset) = location(of: index)
            yield storedChunks[chunk].storage[offset]
        }
        set {
            replace(at: index, with: newValue)
        }
    }

    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(storedChunks)
    }

    /// The position of the first element that satisfies `predicate`, walking chunk by chunk.
    @inlinable
    public func firstIndex(where predicate: (Element) throws -> Bool) rethrows -> Int? {
        for (chunk, end) in zip(storedChunks, ends) {
            if let offset = try chunk.elements.firstIndex(where: predicate) {
                return end - chunk.elements.count + offset
            }
        }
        return nil
    }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
    @inlinable
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension ChunkedArray: Equatable where Element: Equatable {
    /// Element by element; chunks shared by both sides at the same position are skipped.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.ends == rhs.ends {
            return zip(lhs.storedChunks, rhs.storedChunks).allSatisfy { $0 === $1 || $0.elements == $1.elements }
        }
        return lhs.elementsEqual(rhs)
    }
}

extension ChunkedArray: Codable where Element: Codable {
    /// Decodes a plain JSON array.
    public init(from decoder: any Decoder) throws {
        self.init(splitting: try [Element](from: decoder))
    }

    /// Encodes a plain JSON array: chunks do not show on the wire or in snapshots.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}
