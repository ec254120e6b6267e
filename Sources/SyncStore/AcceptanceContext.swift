#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The impure inputs an action may capture when it is accepted: a fresh identifier and the clock.
///
/// The daemon makes one per accepted action. Tests make them with fixed values to get exact,
/// repeatable states.
public struct AcceptanceContext: Sendable, Equatable {
    /// A fresh random identifier, for actions that create something.
    public var identifier: UUID
    /// Acceptance time in whole milliseconds since the Unix epoch.
    public var millisecondsSinceEpoch: Int64

    /// A context with explicit values (tests, replays).
    public init(identifier: UUID, millisecondsSinceEpoch: Int64) {
        self.identifier = identifier
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// A context for now, with a random identifier.
    public static func now() -> AcceptanceContext {
        let milliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        return AcceptanceContext(identifier: UUID(), millisecondsSinceEpoch: milliseconds)
    }
}
