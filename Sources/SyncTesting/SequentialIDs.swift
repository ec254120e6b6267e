import SyncLock
import SyncStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Ids in a fixed sequence: `00000000-0000-4000-8000-000000000001`, then `…002`, and so on,
/// so that ids (and the change ids drawn from them) are the same on every run.
public final class SequentialIDs: IDSource {
    private let counter: Locked<UInt64>

    /// A sequence whose first id ends in `first`.
    public init(first: UInt64 = 1) {
        counter = Locked(first)
    }

    public func next() -> UUID {
        Self.id(
            counter.withLock { counter in
                defer { counter += 1 }
                return counter
            })
    }

    /// The id numbered `number` in the sequence.
    public static func id(_ number: UInt64) -> UUID {
        let hex = String(number & 0xFFFF_FFFF_FFFF, radix: 16)
        return UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
    }
}
