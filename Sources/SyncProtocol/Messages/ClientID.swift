#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The name a client gives itself in `hello` to get exactly-once dispatch: 1 to 64 characters
/// from `A-Z a-z 0-9 . _ -`. A client makes one up (a random UUID serves) and keeps it across
/// its reconnects; the daemon remembers, per client id, which numbered dispatches it applied.
public struct ClientID: Hashable, Sendable, CustomStringConvertible {
    /// The longest client id, in characters.
    public static let maximumLength = 64

    /// The id as sent on the wire.
    public let value: String

    /// The id `value`, or `nil` if it breaks the rules above.
    public init?(_ value: String) {
        guard Self.problem(with: value) == nil else { return nil }
        self.value = value
    }

    /// A new random id (a lowercase UUID).
    public static func random() -> ClientID {
        ClientID(UUID().uuidString.lowercased())!
    }

    /// What is wrong with `value` as a client id, in a few words, or `nil` if nothing is.
    public static func problem(with value: String) -> String? {
        let bytes = value.utf8
        if bytes.isEmpty { return "it is empty" }
        guard bytes.allSatisfy(isAllowed) else { return "it may only hold A-Z, a-z, 0-9, \".\", \"_\" and \"-\"" }
        // Every allowed character is one byte, so the byte count is the character count.
        if bytes.count > maximumLength { return "it is longer than \(maximumLength) characters" }
        return nil
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// The id as sent on the wire.
    public var description: String { value }
}
