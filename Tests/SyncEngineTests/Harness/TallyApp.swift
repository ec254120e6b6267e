import SyncStore

/// The app the engine's tests serve: a tally and notes, a side effect that waits, two view models.
enum TallyApp: SyncApp {
    static let identity = AppIdentity(name: "tally", version: "0.0.0")
    struct State: Codable, Equatable, Sendable {
        var count = 0
        var notes: [String] = []
    }

    static let initialState = State()
    static let actions: [any Action<State>.Type] = [Add.self, Note.self, StampNote.self]
    static let sideEffects: [any DispatchedSideEffect<State, StandardDependencies>.Type] = [Wait.self]
    static let viewModels: [any ViewModel<State>.Type] = [TallyModel.self, NotesModel.self, NoteModel.self]
}

/// Error thrown when a tally would go past its limit.
struct PastTheLimit: Error, CustomStringConvertible {
    var description: String { "the tally would pass 100" }
}

/// Adds `by` to the tally; refuses to pass 100.
struct Add: Action {
    static let wireName = "add"
    var by = 1

    func update(_ state: inout TallyApp.State) throws {
        guard state.count + by <= 100 else { throw PastTheLimit() }
        state.count += by
    }
}

/// Appends a note.
struct Note: Action {
    static let wireName = "note"
    var text: String

    func update(_ state: inout TallyApp.State) throws {
        state.notes.append(text)
    }
}

/// Appends a note of `prefix` and the acceptance time; its `Codable` keeps only `prefix`, so the
/// time survives a replay only because the journal keeps the context and accepts it again.
struct StampNote: Action {
    static let wireName = "stamp"
    var prefix: String
    var at: Int64?

    enum CodingKeys: String, CodingKey { case prefix }

    mutating func accept(_ context: AcceptanceContext, state: TallyApp.State) {
        at = context.millisecondsSinceEpoch
    }

    func update(_ state: inout TallyApp.State) throws {
        state.notes.append("\(prefix) \(at ?? 0)")
    }
}

/// A side effect the tests end by hand (the engine only starts and cancels it).
struct Wait: DispatchedSideEffect {
    static let wireName = "wait"

    func run(_ context: SideEffectContext<TallyApp.State, StandardDependencies>) async throws -> Int { 0 }
}

/// The tally.
struct TallyModel: ViewModel {
    static let wireName = "tally"
    var count: Int

    init(state: TallyApp.State, params: NoParams) {
        count = state.count
    }
}

/// The notes.
struct NotesModel: ViewModel {
    static let wireName = "notes"
    var notes: [String]

    init(state: TallyApp.State, params: NoParams) {
        notes = state.notes
    }
}

/// One note, by its index; `null` when there is none.
struct NoteModel: ViewModel {
    struct Params: Codable, Hashable, Sendable {
        var index: Int
    }

    static let wireName = "note"
    var text: String

    init?(state: TallyApp.State, params: Params) {
        guard state.notes.indices.contains(params.index) else { return nil }
        text = state.notes[params.index]
    }
}
