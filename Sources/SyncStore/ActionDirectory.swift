/// An app's action types by wire name: one hash lookup per name, where
/// `SyncApp.actionType(named:)` walks the list and compares each type's name. The daemon looks
/// up every dispatch and every replayed journal entry here.
public struct ActionDirectory<State>: Sendable {
    private let types: [String: any Action<State>.Type]

    /// The directory of `actions`; of two with one wire name, the first wins, as in
    /// `SyncApp.actionType(named:)`.
    public init(_ actions: [any Action<State>.Type]) {
        types = Dictionary(actions.map { ($0.wireName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The action type registered under `wireName`, if any.
    public subscript(wireName: String) -> (any Action<State>.Type)? {
        types[wireName]
    }
}
