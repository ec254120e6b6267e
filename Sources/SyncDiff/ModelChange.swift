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
    public static func arrayChanges<Element: Equatable & Encodable & Sendable>(
        from old: [Element], to new: [Element], at path: [String], firstIndex: Int
    ) -> [ModelChange] {
        arrayChanges(from: old, to: new, at: path, firstIndex: firstIndex) { index, position in
            old[index] == new[index] ? [] : [.replace(path: position, value: new[index])]
        }
    }

    /// The one walk of an `ArrayDifference` into changes: `paired(index, path)` says how the
    /// elements at `index` of both middles differ (a replace, or the changes inside them), the
    /// rest of the old middle is removed, highest index first, and the rest of the new one added.
    /// Paths are `path` and the element's position, counted from `firstIndex`.
    @inlinable
    public static func arrayChanges<Element: Equatable & Encodable & Sendable>(
        from old: [Element], to new: [Element], at path: [String], firstIndex: Int,
        paired: (_ index: Int, _ path: [String]) -> [ModelChange]
    ) -> [ModelChange] {
        let difference = ArrayDifference(from: old, to: new)
        let position = { (index: Int) in path + [String(firstIndex + index)] }
        var changes: [ModelChange] = []
        for index in difference.paired { changes += paired(index, position(index)) }
        for index in difference.removed { changes.append(.remove(path: position(index))) }
        for index in difference.added { changes.append(.add(path: position(index), value: new[index])) }
        return changes
    }
}
