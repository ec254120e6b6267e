#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension JSONObjectFields {
    /// The keys of the top-level object in `bytes` whose value is a number written with a
    /// fraction or an exponent (`1.0`, `1e2`); for a key given twice, its first value, the one
    /// `JSONDecoder` reads. Keys with escapes are unescaped. Empty when `bytes` are not an
    /// object. What lets integer fields be refused when `JSONDecoder`, which reads `1e2` as 100,
    /// decodes them.
    static func keysOfNonIntegerNumbers(in bytes: [UInt8]) -> Set<String> {
        let members = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, start: 0, end: buffer.count)
            return scanner.topLevelObject(plainKeys: false)
        }
        var seen: Set<String> = []
        var keys: Set<String> = []
        for member in members ?? [] {
            let quoted = (member.key.lowerBound - 1)..<(member.key.upperBound + 1)
            let name: String
            if bytes[member.key].contains(UInt8(ascii: "\\")) {
                guard let unescaped = try? JSONDecoder().decode(String.self, from: Data(bytes[quoted])) else {
                    continue
                }
                name = unescaped
            } else {
                name = String(decoding: bytes[member.key], as: UTF8.self)
            }
            guard seen.insert(name).inserted, member.kind == .number else { continue }
            if bytes[member.value].contains(where: {
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
            }) {
                keys.insert(name)
            }
        }
        return keys
    }
}
