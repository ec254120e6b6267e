import SyncProtocol
import TodoDomain

/// What the history view shows: which version, and the list and action there once loaded.
public struct HistoryModel: Equatable, Sendable {
    /// The version shown (or being loaded).
    public var version: UInt64
    /// The newest version, where stepping forward stops.
    public var newest: UInt64
    /// The filter of the list.
    public var filter: ListFilter
    /// The moment at `version`, once it arrived.
    public var moment: HistoryMoment?
    /// Why the moment could not be loaded, if so.
    public var failure: String?

    /// A model at `version` of `newest`, nothing loaded yet.
    public init(
        version: UInt64, newest: UInt64, filter: ListFilter, moment: HistoryMoment? = nil, failure: String? = nil
    ) {
        self.version = version
        self.newest = newest
        self.filter = filter
        self.moment = moment
        self.failure = failure
    }

    /// What the action at the moment's version did, in a few words: `add "buy milk"`,
    /// `complete #2`, `undo (add "b")`, `import 3 items`; "the start" at version 0.
    var change: String {
        guard let moment, moment.version == version else { return failure == nil ? "loading..." : "" }
        guard let entry = moment.entry else {
            return moment.version == 0 ? "the start: nothing done yet" : "no entry in the journal"
        }
        return Self.summary(of: entry)
    }

    /// `name` and the fields of the payload people recognise.
    static func summary(of entry: HistoryEntry) -> String {
        var words = [entry.name]
        if case .integer(let number)? = entry.payload["number"] { words.append("#\(number)") }
        if case .string(let text)? = entry.payload["text"] { words.append("\"\(text)\"") }
        if case .array(let items)? = entry.payload["items"] {
            words.append("\(items.count) item\(items.count == 1 ? "" : "s")")
        }
        if case .string(let undoing)? = entry.payload["undoing"] { words.append("(\(undoing))") }
        return words.joined(separator: " ")
    }
}
