import SyncStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A readable difference between two states: their pretty-printed JSON, line by line, with the
/// lines only the expected state has marked `-` and those only the actual one has marked `+`.
enum StateDifference {
    /// The differing lines of `expected` and `actual`, with two lines of context on each side.
    static func describe<State: Encodable>(expected: State, actual: State) -> String {
        let old = lines(expected)
        let new = lines(actual)
        let difference = ArrayDifference(from: old, to: new)
        let head = difference.paired.lowerBound
        let oldEnd = difference.removed.first.map { $0 + 1 } ?? difference.paired.upperBound
        let newEnd = max(difference.paired.upperBound, difference.added.upperBound)
        let start = max(0, head - 2)
        let end = min(new.count, newEnd + 2)
        var output = start > 0 ? ["  …"] : []
        output += old[start..<head].map { "  " + $0 }
        output += old[head..<oldEnd].map { "- " + $0 }
        output += new[head..<newEnd].map { "+ " + $0 }
        output += new[newEnd..<end].map { "  " + $0 }
        if end < new.count { output.append("  …") }
        return "(- expected, + actual)\n" + output.joined(separator: "\n")
    }

    private static func lines<State: Encodable>(_ state: State) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(state) else { return [String(describing: state)] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
    }
}
