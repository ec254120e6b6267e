/// A change to the state, as a value: Katana's state updater.
///
/// An action has a stable wire name and a payload (the action's own Codable fields). The store
/// applies actions one at a time, in arrival order. `update(_:)` must be pure: the same action on
/// the same state always gives the same result, so replaying a journal of actions rebuilds the
/// state exactly. Values that are not pure functions of the state (ids, clock readings) are fixed
/// in `accept(_:state:)` from the `AcceptanceContext`, which the journal keeps.
///
/// The journal keeps an action as it was received (the client's JSON) with its acceptance
/// context, and a replay decodes those same bytes and accepts them again with the same context:
/// the very computation the daemon did the first time, so a `Codable` conformance that loses a
/// field cannot make a replay differ. An action whose acceptance also reads `state` (an undo
/// that names the change it undoes) says so with `acceptanceReadsState`; the journal then keeps
/// it as accepted (encoded again, with what acceptance fixed in its payload), because a shared
/// log may re-run an unsaved action on a newer state, where accepting it again would give it
/// another meaning.
public protocol Action<State>: Codable, Sendable {
    /// The state this action updates.
    associatedtype State

    /// The name that identifies this action on the wire and in journals. Never change it.
    static var wireName: String { get }

    /// Whether `accept(_:state:)` reads `state`; `false` unless the action says so. With
    /// `false`, acceptance must depend on the context alone, as it is repeated on replay.
    static var acceptanceReadsState: Bool { get }

    /// Fixes the values that are not functions of the state, when the action is accepted, just
    /// before it is applied to `state`; and again, with the same context, whenever the journal
    /// is replayed (unless `acceptanceReadsState`). Must be a function of `context` (and, with
    /// `acceptanceReadsState`, of `state`) alone.
    mutating func accept(_ context: AcceptanceContext, state: State)

    /// Applies the action. Throwing rejects it, and a rejected action must leave `state` as it
    /// found it: check everything that can fail first, then change. (The store updates in
    /// place rather than on a copy, so that an action costs what it changes.)
    func update(_ state: inout State) throws
}

extension Action {
    /// Most actions carry nothing that needs fixing at acceptance.
    public mutating func accept(_ context: AcceptanceContext, state: State) {}

    /// Most actions fix at acceptance only what the context gives.
    public static var acceptanceReadsState: Bool { false }
}
