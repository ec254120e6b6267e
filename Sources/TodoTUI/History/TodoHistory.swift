import SyncClient
import SyncProtocol
import TerminalUI
import TodoDomain

/// The past as the history mode reads it: the list at any version, with the journal entry of
/// the action that made it. A struct of functions, like `TodoStore`, so that the history
/// screen runs over the real daemon (`live(_:)`) or over fixed values in tests.
public struct TodoHistory: Sendable {
    /// The list with a filter at a version, and that version's entry (one value, then the end).
    public let moment: @Sendable (ListFilter, UInt64) -> Feed<HistoryMoment>

    /// A history made of this function.
    public init(moment: @escaping @Sendable (ListFilter, UInt64) -> Feed<HistoryMoment>) {
        self.moment = moment
    }

    /// The history the daemon behind `client` rebuilds (`get` with `at`, and `history`).
    public static func live(_ client: SyncClient) -> TodoHistory {
        TodoHistory { filter, version in
            Feed("history \(filter) at \(version)") {
                AsyncThrowingStream { continuation in
                    let load = Task {
                        do {
                            let list = try await client.get(
                                ListViewModel.self, params: .init(filter: filter), at: version)
                            let entry =
                                version == 0
                                ? nil
                                : try await client.history(after: version - 1, limit: 1).first { $0.version == version }
                            continuation.yield(HistoryMoment(version: version, list: list.model, entry: entry))
                            continuation.finish()
                        } catch {
                            continuation.finish(throwing: error)
                        }
                    }
                    continuation.onTermination = { _ in load.cancel() }
                }
            }
        }
    }

    /// A history with nothing in it: its feeds end at once (screens show what a test puts in).
    public static let inert = TodoHistory { _, _ in .just("history", []) }
}

/// One version of the past: the list as it was, and the action that made that version.
public struct HistoryMoment: Equatable, Sendable {
    /// The state version.
    public var version: UInt64
    /// The list at `version` (`nil`: the daemon had none).
    public var list: ListViewModel?
    /// The journal entry of the action at `version` (`nil` at version 0).
    public var entry: HistoryEntry?

    /// A moment with every field given.
    public init(version: UInt64, list: ListViewModel?, entry: HistoryEntry?) {
        self.version = version
        self.list = list
        self.entry = entry
    }
}
