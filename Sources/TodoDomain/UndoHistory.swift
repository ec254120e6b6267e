/// The steps `undo` can revert, newest last, at most `TodoState.undoDepth` of them.
///
/// A ring of at most `undoDepth` steps: once it is full, a push writes over the oldest step in
/// place. Its storage is shared with earlier versions of the state (the published state, the
/// one being committed) until the first push of a dispatch pass copies it; every other push
/// of the pass writes into storage of its own, without allocating. It encodes as the JSON
/// array of its steps, oldest first.
public struct UndoHistory: Sendable {
    /// The steps; once `undoDepth` are kept, the oldest is at `oldest` and the newest just
    /// before it (wrapping around).
    private var ring: [UndoStep]
    /// Where the oldest step is in `ring`; 0 until the ring is full.
    private var oldest: Int

    /// A history of `steps`, oldest first; only the newest `TodoState.undoDepth` are kept.
    public init(_ steps: some Sequence<UndoStep>) {
        ring = Array(steps.suffix(TodoState.undoDepth))
        oldest = 0
    }

    /// How many steps the history has.
    public var count: Int { ring.count }

    /// Whether there is nothing to undo.
    public var isEmpty: Bool { ring.isEmpty }

    /// The step an undo reverts next.
    public var last: UndoStep? { ring.isEmpty ? nil : ring[newestIndex] }

    /// Every step, oldest first.
    public var steps: [UndoStep] {
        oldest == 0 ? ring : Array(ring[oldest...] + ring[..<oldest])
    }

    /// Adds `step` as the newest; the oldest step is forgotten when the history is full.
    public mutating func push(_ step: UndoStep) {
        if ring.count < TodoState.undoDepth {
            ring.append(step)
        } else {
            ring[oldest] = step
            oldest = (oldest + 1) % ring.count
        }
    }

    /// Removes and returns the newest step, if any. The ring is put in order first (undo is
    /// rare; a push is not).
    public mutating func popLast() -> UndoStep? {
        guard !ring.isEmpty else { return nil }
        if oldest != 0 {
            ring = steps
            oldest = 0
        }
        return ring.removeLast()
    }

    /// Where the newest step is in `ring`, which is not empty.
    private var newestIndex: Int { (oldest + ring.count - 1) % ring.count }
}

extension UndoHistory: Equatable {
    public static func == (lhs: UndoHistory, rhs: UndoHistory) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // Rings in the same rotation compare as arrays: at once when they share storage.
        if lhs.oldest == rhs.oldest { return lhs.ring == rhs.ring }
        for offset in 0..<lhs.count where lhs.step(at: offset) != rhs.step(at: offset) {
            return false
        }
        return true
    }

    /// The step `offset` places after the oldest.
    private func step(at offset: Int) -> UndoStep {
        ring[(oldest + offset) % ring.count]
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
