/// Where two arrays differ, for changes made in one place (rows inserted, removed or changed
/// together): the common head and tail stay, the middle of each side is paired index by index,
/// and what one middle has beyond the other is removed or added.
///
/// ```
/// old: [ head | changed… | removed… | tail ]
/// new: [ head | changed… | added…   | tail ]
/// ```
public struct ArrayDifference: Equatable, Sendable {
    /// Indices at which both sides have an element of the middle (equal or not).
    public let paired: Range<Int>
    /// Indices of the old array whose elements go, highest first: removing them in this order
    /// keeps each index right.
    public let removed: [Int]
    /// Indices of the new array whose elements come, lowest first, each inserted at its index
    /// once the removals are done.
    public let added: Range<Int>

    /// The difference from `old` to `new`, found in one pass from each end.
    @inlinable
    public init<Element: Equatable>(from old: [Element], to new: [Element]) {
        var head = 0
        while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] {
            tail += 1
        }
        let oldEnd = old.count - tail
        let newEnd = new.count - tail
        let pairedEnd = min(oldEnd, newEnd)
        paired = head..<pairedEnd
        removed = Array(stride(from: oldEnd - 1, through: pairedEnd, by: -1))
        added = pairedEnd..<max(pairedEnd, newEnd)
    }
}
