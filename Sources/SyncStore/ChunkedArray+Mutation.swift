/// Changes to a `ChunkedArray`. Each change at one position rebuilds only the chunk it touches
/// (two when a full chunk splits, or a small one joins its neighbour); `removeAll` rebuilds the
/// chunks that lose elements.
extension ChunkedArray {
    /// A chunk this small after a removal joins a neighbour, if the two fit in one chunk: many
    /// removals do not leave many tiny chunks behind.
    @inlinable
    static var smallChunkThreshold: Int { chunkCapacity / 4 }

    /// Replaces the element at `index`.
    @inlinable
    public mutating func replace(at index: Int, with element: Element) {
        let (chunk, offset) = location(of: index)
        if isKnownUniquelyReferenced(&storedChunks[chunk]) {
            // No other array holds the chunk: nothing can tell it changed.
            storedChunks[chunk].storage[offset] = element
            return
        }
        var elements = storedChunks[chunk].elements
        elements[offset] = element
        replaceChunks(chunk..<chunk + 1, with: [Chunk(elements)])
    }

    /// Adds `element` at the end.
    @inlinable
    public mutating func append(_ element: Element) {
        insert(element, at: count)
    }

    /// Inserts `element` before position `index` (`count` appends).
    @inlinable
    public mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "ChunkedArray insertion index \(index) out of range 0...\(count)")
        if storedChunks.isEmpty {
            replaceChunks(0..<0, with: [Chunk([element])])
            return
        }
        let (chunk, offset) =
            index == count
            ? (storedChunks.count - 1, storedChunks[storedChunks.count - 1].elements.count) : location(of: index)
        if index == count, offset >= Self.chunkCapacity {
            replaceChunks(storedChunks.count..<storedChunks.count, with: [Chunk([element])])
            return
        }
        var elements = storedChunks[chunk].elements
        elements.insert(element, at: offset)
        guard elements.count > Self.chunkCapacity else {
            replaceChunks(chunk..<chunk + 1, with: [Chunk(elements)])
            return
        }
        let half = elements.count / 2
        replaceChunks(chunk..<chunk + 1, with: [Chunk(Array(elements[..<half])), Chunk(Array(elements[half...]))])
    }

    /// Removes and returns the element at `index`.
    @inlinable
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        let (chunk, offset) = location(of: index)
        var elements = storedChunks[chunk].elements
        let removed = elements.remove(at: offset)
        if elements.isEmpty {
            replaceChunks(chunk..<chunk + 1, with: [])
        } else if elements.count < Self.smallChunkThreshold,
            let neighbour = joinableNeighbour(of: chunk, keeping: elements.count)
        {
            let joined =
                neighbour < chunk
                ? storedChunks[neighbour].elements + elements : elements + storedChunks[neighbour].elements
            replaceChunks(Swift.min(chunk, neighbour)..<Swift.max(chunk, neighbour) + 1, with: [Chunk(joined)])
        } else {
            replaceChunks(chunk..<chunk + 1, with: [Chunk(elements)])
        }
        return removed
    }

    /// Removes every element that satisfies `shouldBeRemoved`; chunks without one stay shared.
    /// If what remains is mostly small chunks, it is chunked again from scratch.
    @inlinable
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        var kept: [Chunk] = []
        kept.reserveCapacity(storedChunks.count)
        var keptCount = 0
        var changed = false
        for chunk in storedChunks {
            let remaining = try chunk.elements.filter { try !shouldBeRemoved($0) }
            keptCount += remaining.count
            if remaining.count == chunk.elements.count {
                kept.append(chunk)
            } else {
                changed = true
                if !remaining.isEmpty { kept.append(Chunk(remaining)) }
            }
        }
        guard changed else { return }
        if kept.count > 1, keptCount < kept.count * Self.smallChunkThreshold {
            self = ChunkedArray(kept.lazy.flatMap(\.elements))
        } else {
            replaceChunks(0..<storedChunks.count, with: kept)
        }
    }

    /// The chunk beside `chunk` (before it first) that fits in one chunk with `count` elements.
    @inlinable
    func joinableNeighbour(of chunk: Int, keeping count: Int) -> Int? {
        [chunk - 1, chunk + 1].first {
            $0 >= 0 && $0 < storedChunks.count && storedChunks[$0].elements.count + count <= Self.chunkCapacity
        }
    }
}
