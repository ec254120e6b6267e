/// The steps `undo` can revert, newest last, at most `TodoState.undoDepth` of them.
///
/// A persistent list: pushing or popping a step shares every other step with the states before
/// it, so an action costs the same however long the history is (an array would be copied whole
/// on every action, since earlier versions of the state still hold it). It encodes as the JSON
/// array of its steps, oldest first.
public struct UndoHistory: Sendable {
    private final class Node: Sendable {
        let step: UndoStep
        let previous: Node?

        init(step: UndoStep, previous: Node?) {
            self.step = step
            self.previous = previous
        }
    }

    /// The newest node. The newest `count` nodes are the history; older ones, up to `chainLength`,
    /// are forgotten steps still linked until the next rebuild.
    private var newest: Node?
    /// How many steps the history has.
    public private(set) var count: Int
    private var chainLength: Int

    /// A history of `steps`, oldest first; only the newest `TodoState.undoDepth` are kept.
    public init(_ steps: some Sequence<UndoStep>) {
        newest = nil
        count = 0
        chainLength = 0
        for step in steps { push(step) }
    }

    /// Whether there is nothing to undo.
    public var isEmpty: Bool { count == 0 }

    /// The step an undo reverts next.
    public var last: UndoStep? { count > 0 ? newest?.step : nil }

    /// Every step, oldest first.
    public var steps: [UndoStep] {
        var steps: [UndoStep] = []
        steps.reserveCapacity(count)
        var node = newest
        while steps.count < count, let current = node {
            steps.append(current.step)
            node = current.previous
        }
        steps.reverse()
        return steps
    }

    /// Adds `step` as the newest; the oldest step is forgotten when the history is full.
    ///
    /// Forgotten nodes stay linked until the chain is three times `TodoState.undoDepth` long;
    /// then the kept steps are linked anew, which costs half a node per push (at twice, a whole
    /// node per push was a third of what the history cost an action).
    public mutating func push(_ step: UndoStep) {
        newest = Node(step: step, previous: newest)
        count = min(count + 1, TodoState.undoDepth)
        chainLength += 1
        if chainLength >= 3 * TodoState.undoDepth { relinkKeptSteps() }
    }

    /// Removes and returns the newest step, if any.
    public mutating func popLast() -> UndoStep? {
        guard count > 0, let node = newest else { return nil }
        newest = node.previous
        count -= 1
        chainLength -= 1
        return node.step
    }

    private mutating func relinkKeptSteps() {
        var kept: [Node] = []
        kept.reserveCapacity(count)
        var node = newest
        while kept.count < count, let current = node {
            kept.append(current)
            node = current.previous
        }
        var relinked: Node?
        for node in kept.reversed() { relinked = Node(step: node.step, previous: relinked) }
        newest = relinked
        chainLength = kept.count
    }
}

extension UndoHistory: Equatable {
    public static func == (lhs: UndoHistory, rhs: UndoHistory) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var left = lhs.newest
        var right = rhs.newest
        for _ in 0..<lhs.count {
            guard let leftNode = left, let rightNode = right else { return false }
            if leftNode === rightNode { return true }
            guard leftNode.step == rightNode.step else { return false }
            left = leftNode.previous
            right = rightNode.previous
        }
        return true
    }
}

extension UndoHistory: ExpressibleByArrayLiteral {
    /// A history of the listed steps, oldest first.
    public init(arrayLiteral steps: UndoStep...) {
        self.init(steps)
    }
}

extension UndoHistory: Codable {
    /// Decodes the JSON array of steps, oldest first.
    public init(from decoder: any Decoder) throws {
        self.init(try [UndoStep](from: decoder))
    }

    /// Encodes the steps as a JSON array, oldest first.
    public func encode(to encoder: any Encoder) throws {
        try steps.encode(to: encoder)
    }
}
