extension ModelChange {
    /// The changes from `old` to `new` for a chunked array member at `path`: chunks both share
    /// are skipped without looking at their elements, and each run of chunks between shared ones
    /// is compared as `arrayChanges` does. A change costs about one identity comparison per chunk
    /// plus the elements of the chunks it replaced.
    @inlinable
    public static func arrayChanges<Element: Equatable & Encodable & Sendable>(
        from old: ChunkedArray<Element>, to new: ChunkedArray<Element>, at path: [String]
    ) -> [ModelChange] {
        let oldChunks = old.chunks
        let newChunks = new.chunks
        let matches = ChunkedArray.matches(from: oldChunks, to: newChunks)
        var changes: [ModelChange] = []
        var oldStart = 0
        var newStart = 0
        // Runs are patched from the front, so each starts where `new` has it: the runs before it
        // already have their new elements.
        for newIndex in 0...newChunks.count {
            guard let oldIndex = newIndex < newChunks.count ? matches[newIndex] : oldChunks.count else { continue }
            if oldStart < oldIndex || newStart < newIndex {
                changes += arrayChanges(
                    from: oldChunks[oldStart..<oldIndex].flatMap(\.elements),
                    to: newChunks[newStart..<newIndex].flatMap(\.elements),
                    at: path, firstIndex: new.start(ofChunk: newStart))
            }
            oldStart = oldIndex + 1
            newStart = newIndex + 1
        }
        return changes
    }
}
