/// A change to the state, as a value: Katana's state updater.
///
/// An action has a stable wire name and a payload (the action's own Codable fields). The store
/// applies actions one at a time, in arrival order. `update(_:)` must be pure: the same action on
/// the same state always gives the same result, so replaying a journal of actions rebuilds the
/// state exactly. Values that are not pure functions of the state (ids, clock readings) are fixed
/// earlier, in `accept(_:state:)`, and then travel inside the payload, where journals keep them.
/// Acceptance may also note what the action will do to `state` (an undo names what it undoes),
/// for people reading the journal.
public protocol Action<State>: Codable, Sendable {
    /// The state this action updates.
    associatedtype State

    /// The name that identifies this action on the wire and in journals. Never change it.
    static var wireName: String { get }

    /// Fixes the values that are not functions of the state, once, when the action is accepted,
    /// just before it is applied to `state`. Never called on replay.
    mutating func accept(_ context: AcceptanceContext, state: State)

    /// Applies the action. Throwing rejects it, and a rejected action must leave `state` as it
    /// found it: check everything that can fail first, then change. (The store updates in
    /// place rather than on a copy, so that an action costs what it changes.)
    func update(_ state: inout State) throws
}

extension Action {
    /// Most actions carry nothing that needs fixing at acceptance.
    public mutating func accept(_ context: AcceptanceContext, state: State) {}
}
