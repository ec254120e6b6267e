/// One entry of the undo history: what an action did, and how to revert it.
///
/// Nearly every action makes one, and most are forgotten unread (`TodoState.undoDepth`), so a
/// step made by an action on one item keeps the parts of its summary (a verb and the item's
/// text, which it shares) and its one change inline: the summary is written when it is read,
/// and the step costs no allocation of its own beside its history node.
public struct UndoStep: Codable, Equatable, Sendable {
    /// The id of the action that made the step, fixed when that action was accepted (so it
    /// stays the same when a shared log's rebase applies the action again): what an `undo`
    /// names as the step it reverts. `nil` in steps recorded before undo named its target.
    public var change: Int?
    private var summaryParts: SummaryParts
    private var reverting: Reverting

    /// A step with every field given.
    public init(summary: String, changes: [UndoChange], change: Int? = nil) {
        self.summaryParts = .text(summary)
        self.reverting = Reverting(changes)
        self.change = change
    }

    /// The step of an action that did `verb` to `item` and is reverted by `revert`: its summary
    /// is `verb "text"` (`complete "buy milk"`).
    init(_ verb: StaticString, _ item: TodoItem, revertedBy revert: UndoChange, change: Int?) {
        self.summaryParts = .action(verb: verb, text: item.text)
        self.reverting = .one(revert)
        self.change = change
    }

    /// What the action did, for people: `add "buy milk"`.
    public var summary: String {
        get {
            switch summaryParts {
            case .text(let text): text
            case .action(let verb, let text): describe(verb, text)
            }
        }
        set { summaryParts = .text(newValue) }
    }

    /// The changes that revert it, applied in order.
    public var changes: [UndoChange] {
        get {
            switch reverting {
            case .one(let change): [change]
            case .list(let changes): changes
            }
        }
        set { reverting = Reverting(newValue) }
    }

    /// A summary as given, or the parts it is written from when read.
    private enum SummaryParts: Sendable {
        case text(String)
        case action(verb: StaticString, text: String)
    }

    /// The changes, the usual one without an array of its own.
    private enum Reverting: Equatable, Sendable {
        case one(UndoChange)
        case list([UndoChange])

        init(_ changes: [UndoChange]) {
            self = changes.count == 1 ? .one(changes[0]) : .list(changes)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case summary, changes, change
    }

    /// Decodes `{"summary": …, "changes": […], "change": …}` (`change` may be absent).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            summary: try container.decode(String.self, forKey: .summary),
            changes: try container.decode([UndoChange].self, forKey: .changes),
            change: try container.decodeIfPresent(Int.self, forKey: .change))
    }

    /// Encodes the fields `init(from:)` reads; `change` only when there is one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(summary, forKey: .summary)
        try container.encode(changes, forKey: .changes)
        try container.encodeIfPresent(change, forKey: .change)
    }

    /// Steps are equal when their summaries, changes and ids are, however they are kept.
    public static func == (lhs: UndoStep, rhs: UndoStep) -> Bool {
        // One change is always kept as `.one`, so the changes are equal when these are.
        guard lhs.change == rhs.change, lhs.reverting == rhs.reverting else { return false }
        if case .action(let leftVerb, let leftText) = lhs.summaryParts,
            case .action(let rightVerb, let rightText) = rhs.summaryParts,
            leftVerb.withUTF8Buffer({ left in rightVerb.withUTF8Buffer { left.elementsEqual($0) } })
        {
            return leftText == rightText
        }
        return lhs.summary == rhs.summary
    }
}

/// One change that reverts part of an action.
public enum UndoChange: Codable, Equatable, Sendable {
    /// Remove the item with this number.
    case remove(number: Int)
    /// Put this item back at this position.
    case restore(item: TodoItem, index: Int)
    /// Give the item with this number these fields again.
    case replace(item: TodoItem)
}

extension TodoState {
    /// How many steps `undo` can go back; older ones are forgotten.
    public static let undoDepth = 100

    /// Remembers how to revert an action that just changed the state.
    mutating func pushUndo(_ summary: String, _ changes: [UndoChange], change: Int?) {
        undoStack.push(UndoStep(summary: summary, changes: changes, change: change))
    }

    /// Remembers how to revert an action that did `verb` to `item` and is reverted by `revert`.
    mutating func pushUndo(_ verb: StaticString, _ item: TodoItem, revertedBy revert: UndoChange, change: Int?) {
        undoStack.push(UndoStep(verb, item, revertedBy: revert, change: change))
    }

    /// Applies `changes`. Each one is skipped if the state no longer has what it refers to.
    mutating func revert(_ changes: [UndoChange]) {
        // Restoring looks for an item that is usually absent, which a search by number only
        // learns by looking at every item: with many restores, collect the numbers once.
        var numbers = changes.count > 1 ? Set(items.lazy.map(\.number)) : nil
        for change in changes {
            switch change {
            case .remove(let number):
                guard let index = position(of: number) else { continue }
                items.remove(at: index)
                numbers?.remove(number)
            case .restore(let item, let index):
                let isPresent = numbers?.contains(item.number) ?? (position(of: item.number) != nil)
                guard !isPresent else { continue }
                items.insert(item, at: min(index, items.count))
                numbers?.insert(item.number)
            case .replace(let item):
                guard let index = position(of: item.number) else { continue }
                items.replace(at: index, with: item)
            }
        }
    }
}

/// The summary of an action on an item with this text: `complete "buy milk"`.
func describe(_ verb: StaticString, _ text: String) -> String {
    // Written into a string of its size at once: the interpolation took about twice as long
    // (170-230 against 90-110 ns for a 128-character text, release build).
    var text = text
    return verb.withUTF8Buffer { verb in
        text.withUTF8 { text in
            String(unsafeUninitializedCapacity: verb.count + text.count + 3) { summary in
                var position = summary.initialize(fromContentsOf: verb)
                summary[position] = UInt8(ascii: " ")
                summary[position + 1] = UInt8(ascii: "\"")
                position += 2
                position += UnsafeMutableBufferPointer(rebasing: summary[position...]).initialize(fromContentsOf: text)
                summary[position] = UInt8(ascii: "\"")
                return position + 1
            }
        }
    }
}
