import CCrypto

/// The hash chain of a shared log: each entry's hash covers the previous entry's hash and every
/// field of the entry, so a log rewritten under a daemon (restored from an old backup, rows
/// deleted and replaced, a failover that lost commits) no longer matches what it saw.
///
/// ```
/// hash(0) = 32 zero bytes
/// hash(v) = SHA-256(hash(v-1) ‖ v ‖ name ‖ payload ‖ acceptedAt ‖ uid ‖ pid ‖ clientId ‖ sequence ‖ host
///                  [‖ acceptanceId])
/// ```
/// Integers are 8 bytes big-endian; strings and optional fields are a presence byte, then a
/// 4-byte big-endian length and the bytes, so no two different entries encode alike. The
/// acceptance identifier (16 bytes) is appended only when the entry has one, so the hashes of
/// entries written before schema 3 stay what they were.
public struct LogChain: Equatable, Sendable {
    /// The version this link is the hash of.
    public var version: UInt64
    /// The chained hash at `version`, 32 bytes.
    public var hash: [UInt8]

    /// The link before the first entry.
    public static let origin = LogChain(version: 0, hash: [UInt8](repeating: 0, count: 32))

    /// A link at `version` with `hash`.
    public init(version: UInt64, hash: [UInt8]) {
        self.version = version
        self.hash = hash
    }

    /// The link after appending `entry`, which must have the next version. Needs libcrypto
    /// (`SharedLogLibraries`), which every system with libpq has: the process stops without it.
    public func appending(_ entry: JournalEntry) -> LogChain {
        var bytes = hash
        bytes.reserveCapacity(hash.count + entry.payload.count + 96)
        Self.append(entry.version, to: &bytes)
        Self.append(Array(entry.name.utf8), to: &bytes)
        Self.append(entry.payload, to: &bytes)
        Self.append(UInt64(bitPattern: entry.acceptedAt), to: &bytes)
        Self.append(entry.peerUID.map { UInt64($0) }, to: &bytes)
        Self.append(entry.peerPID.map { UInt64(bitPattern: Int64($0)) }, to: &bytes)
        Self.append(entry.clientID.map { Array($0.utf8) }, to: &bytes)
        Self.append(entry.clientSequence, to: &bytes)
        Self.append(entry.host.map { Array($0.utf8) }, to: &bytes)
        if let identifier = entry.acceptanceIdentifier { Self.append(identifier.bytes, to: &bytes) }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                SharedLogLibraries.shared.sha256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return LogChain(version: entry.version, hash: digest)
    }

    /// The hash as lowercase hexadecimal.
    public var hexHash: String { Self.hex(hash) }

    /// `bytes` as lowercase hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a hexadecimal string (PostgreSQL's `\x…` bytea output included), or `nil`.
    static func bytes(hex text: String) -> [UInt8]? {
        var digits = Array(text.utf8)
        if digits.starts(with: Array("\\x".utf8)) { digits.removeFirst(2) }
        guard digits.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private static func append(_ value: UInt64?, to bytes: inout [UInt8]) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        append(value, to: &bytes)
    }

    private static func append(_ value: [UInt8], to bytes: inout [UInt8]) {
        let length = UInt32(value.count)
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: length >> UInt32(shift)))
        }
        bytes.append(contentsOf: value)
    }

    private static func append(_ value: [UInt8]?, to bytes: inout [UInt8]) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        append(value, to: &bytes)
    }
}
