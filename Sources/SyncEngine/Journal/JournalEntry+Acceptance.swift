import SyncJournal
import SyncStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AcceptanceIdentifier {
    /// The journal's form of `identifier`.
    init(_ identifier: UUID) {
        let halves = withUnsafeBytes(of: identifier.uuid) { raw in
            (
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        self.init(high: halves.0, low: halves.1)
    }

    /// The identifier as a `UUID`.
    var uuid: UUID {
        var bytes = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: bytes)
    }
}

extension JournalEntry {
    /// The context the action was accepted with, when the entry keeps it as received (and a
    /// replay accepts it again); `nil` when the payload is the accepted action.
    var acceptanceContext: AcceptanceContext? {
        acceptanceIdentifier.map {
            AcceptanceContext(identifier: $0.uuid, millisecondsSinceEpoch: acceptedAt)
        }
    }
}
