import SyncStore

/// Applies `ModelChange`s to typed values, as a client applies the JSON Patch made from them, so
/// tests check what the changes say without a round trip through JSON.
public enum ModelChangeApplier {
    /// Applies the changes to the array member `member` (`[member, index]` paths) to `array`,
    /// and hands every other change (a counter, say) to `other`.
    public static func apply<Element>(
        _ changes: [ModelChange], toArray member: String, _ array: inout [Element],
        other: (ModelChange) -> Void = { change in preconditionFailure("unexpected change \(change)") }
    ) {
        for change in changes {
            switch change {
            case .add(let path, let value) where path.count == 2 && path[0] == member:
                array.insert(value as! Element, at: Int(path[1])!)
            case .remove(let path) where path.count == 2 && path[0] == member:
                array.remove(at: Int(path[1])!)
            case .replace(let path, let value) where path.count == 2 && path[0] == member:
                array[Int(path[1])!] = value as! Element
            default:
                other(change)
            }
        }
    }
}
