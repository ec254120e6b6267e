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

    /// A number drawn from `identifier` (its low 52 bits, random in a version 4 UUID, exact in
    /// a JSON number), for an action to name the change it makes.
    public var changeID: Int {
        let bytes = identifier.uuid
        let low = [bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15].reduce(UInt64(bytes.8)) {
            $0 << 8 | UInt64($1)
        }
        return Int(low & ((1 << 52) - 1))
    }

    /// A context for now, with a random identifier (what `StandardDependencies()` gives).
    public static func now() -> AcceptanceContext {
        AcceptanceContext(identifier: randomUUID(), millisecondsSinceEpoch: SystemClock().now())
    }

    /// A version 4 UUID from the kernel's generator, through `RandomBytes`:
    /// Foundation's `UUID()` opens and reads /dev/urandom each time, three system calls on every
    /// accepted action.
    static func randomUUID() -> UUID {
        let (high, low) = RandomBytes.shared.next128()
        var bytes = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: high, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
            raw[6] = (raw[6] & 0x0F) | 0x40
            raw[8] = (raw[8] & 0x3F) | 0x80
        }
        return UUID(uuid: bytes)
    }
}
