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
    public static func arrayChanges<Element: Equatable & Encodable & Sendable>(
        from old: [Element], to new: [Element], at path: [String]
    ) -> [ModelChange] {
        let difference = ArrayDifference(from: old, to: new)
        var changes: [ModelChange] = []
        for index in difference.paired where old[index] != new[index] {
            changes.append(.replace(path: path + [String(index)], value: new[index]))
        }
        for index in difference.removed { changes.append(.remove(path: path + [String(index)])) }
        for index in difference.added { changes.append(.add(path: path + [String(index)], value: new[index])) }
        return changes
    }
}
