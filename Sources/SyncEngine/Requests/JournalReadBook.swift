/// The history reads and their encodings, and the rebuilds of past versions, that the engine
/// asked the shell for, waiting for their answer (`EngineInput.entriesRead`, `pastBaseRead`,
/// `poolJobEnded`), by the id it gave them.
struct JournalReadBook<State> {
    /// What an answer is for.
    enum Waiting {
        /// A `history` request's read.
        case history(RequestBook.Token)
        /// The read a rebuild of `version` starts from; `render` makes the model.
        case pastBase(RequestBook.Token, version: UInt64, render: @Sendable (State) -> [UInt8])
        /// The replay of a rebuild of `version` on the thread pool.
        case rebuild(RequestBook.Token, version: UInt64)
        /// The encoding of a `history` request's answer on the thread pool.
        case historyEncoding(RequestBook.Token)
    }

    private var waiting: [Int: Waiting] = [:]
    private var nextID = 1

    /// Enters `what`; returns the id its answer comes with.
    mutating func add(_ what: Waiting) -> Int {
        let id = nextID
        nextID += 1
        waiting[id] = what
        return id
    }

    /// Whether no answer is awaited.
    var isEmpty: Bool { waiting.isEmpty }

    /// Takes what the answer with `id` is for.
    mutating func take(_ id: Int) -> Waiting? { waiting.removeValue(forKey: id) }
}
