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
    /// Applies a journaled action to `store` as it was accepted (its payload keeps the values
    /// fixed then, so acceptance is not repeated): how recovery replays the journal and how a
    /// rebase re-runs actions on a newer state.
    package func reapply(_ entry: JournalEntry, to store: inout Store<State>) throws(ReplayFailure) {
        guard let type = self[entry.name] else { throw .unknownAction(name: entry.name) }
        try Self.reapply(type, entry, to: &store)
    }

    private static func reapply<A: Action<State>>(_ type: A.Type, _ entry: JournalEntry, to store: inout Store<State>)
        throws(ReplayFailure)
    {
        let action: A
        do {
            action = try WireJSON.decode(A.self, from: entry.payload)
        } catch {
            throw .undecodable(name: entry.name, reason: error.shortDescription)
        }
        do {
            try store.apply(action)
        } catch {
            throw .rejected(name: entry.name, reason: String(describing: error))
        }
    }
}
