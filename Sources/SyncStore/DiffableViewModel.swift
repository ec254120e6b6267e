/// A view model that can say how it changed, so the daemon sends subscribers the change
/// instead of the whole model, without encoding or comparing the whole model on every version.
///
/// Without this conformance the daemon still sends changes to clients that take them, but finds
/// them by comparing the encoded models: work that grows with the model, not with the change.
public protocol DiffableViewModel: ViewModel {
    /// The changes that turn the encoded form of `old` into the encoded form of `self`, in
    /// order (each applies to what the ones before it left); empty when they are equal.
    func changes(from old: Self) -> [ModelChange]
}

/// One change to a view model's encoded JSON form. `path` holds the member names and array
/// indices leading to the place changed, outermost first (a JSON Pointer, unescaped).
public enum ModelChange: Sendable {
    /// `value` inserted at `path`: a new member, or a new array element before the one there.
    case add(path: [String], value: any Encodable & Sendable)
    /// The member or array element at `path` removed.
    case remove(path: [String])
    /// The value at `path` replaced by `value`.
    case replace(path: [String], value: any Encodable & Sendable)

    /// The changes from `old` to `new` for an array member at `path` (see `ArrayDifference`):
    /// elements that differ in place are replaced, the rest of the middle removed or added. A
    /// change in one place of a long array is a change or two, found in one pass.
    @inlinable
    public static func arrayChanges<Element: Equatable & Encodable & Sendable>(
        from old: [Element], to new: [Element], at path: [String]
    ) -> [ModelChange] {
        arrayChanges(from: old, to: new, at: path, firstIndex: 0)
    }

    /// `arrayChanges` of two runs of elements that start at position `firstIndex` of their arrays.
    @inlinable
    static func arrayChanges<Element: Equatable & Encodable & Sendable>(
        from old: [Element], to new: [Element], at path: [String], firstIndex: Int
    ) -> [ModelChange] {
        let difference = ArrayDifference(from: old, to: new)
        let position = { (index: Int) in path + [String(firstIndex + index)] }
        var changes: [ModelChange] = []
        for index in difference.paired where old[index] != new[index] {
            changes.append(.replace(path: position(index), value: new[index]))
        }
        for index in difference.removed { changes.append(.remove(path: position(index))) }
        for index in difference.added { changes.append(.add(path: position(index), value: new[index])) }
        return changes
    }

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
