import SyncJournal
import SyncProtocol
import SyncStore

/// Why a journaled action could not be applied again.
package enum ReplayFailure: Error, CustomStringConvertible {
    /// No action of the app has the entry's name.
    case unknownAction(name: String)
    /// The payload does not decode as the action.
    case undecodable(name: String, reason: String)
    /// The action decodes, and the state rejects it.
    case rejected(name: String, reason: String)

    package var description: String { description(at: nil) }

    /// The failure, naming the entry's version if given.
    package func description(at version: UInt64?) -> String {
        let at = version.map { " at version \($0)" } ?? ""
        switch self {
        case .unknownAction(let name): return "the action \"\(name)\"\(at) is unknown to this daemon"
        case .undecodable(let name, let reason): return "the \"\(name)\" action\(at) no longer decodes (\(reason))"
        case .rejected(let name, let reason): return "the \"\(name)\" action\(at) no longer applies (\(reason))"
        }
    }
}

extension ActionDirectory where State: Sendable {
    /// Applies a journaled action to `store` as the daemon applied it: one kept as received is
    /// decoded from the same bytes and accepted again with the same context; one kept as
    /// accepted (its payload holds the values fixed then) is applied as it is. How recovery
    /// replays the journal and how a rebase re-runs actions on a newer state.
    package func reapply(_ entry: JournalEntry, to store: inout Store<State>) throws(ReplayFailure) {
        guard let type = self[entry.name] else { throw .unknownAction(name: entry.name) }
        try Self.reapply(type, entry, to: &store)
    }

    /// The action `entry` holds as the daemon applied it, accepted again on `state` when the
    /// entry keeps it as received (acceptance then reads only the context, so any state gives
    /// the same action).
    package func accepted(_ entry: JournalEntry, on state: State) throws(ReplayFailure) -> any Action<State> {
        guard let type = self[entry.name] else { throw .unknownAction(name: entry.name) }
        return try Self.accepted(type, entry, on: state)
    }

    private static func accepted<A: Action<State>>(_ type: A.Type, _ entry: JournalEntry, on state: State)
        throws(ReplayFailure) -> A
    {
        var action: A
        do {
            action = try WireJSON.decode(A.self, from: entry.payload)
        } catch {
            throw .undecodable(name: entry.name, reason: error.shortDescription)
        }
        if let context = entry.acceptanceContext { action.accept(context, state: state) }
        return action
    }

    private static func reapply<A: Action<State>>(_ type: A.Type, _ entry: JournalEntry, to store: inout Store<State>)
        throws(ReplayFailure)
    {
        let action = try accepted(type, entry, on: store.state)
        do {
            try store.apply(action)
        } catch {
            throw .rejected(name: entry.name, reason: String(describing: error))
        }
    }
}
