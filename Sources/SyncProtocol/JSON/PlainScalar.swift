#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The values `PlainJSONEncoder` writes without asking them to encode themselves, and those
/// it refuses before they try.
enum PlainScalar {
    /// Appends `value` when it is a string, a boolean or one of the common integers and returns
    /// `true`; returns `false` for a value that encodes itself; fails `sink` and throws for a
    /// floating-point number, a type `JSONEncoder` special-cases, or a string that is not plain.
    static func append<T: Encodable>(_ value: T, to bytes: inout [UInt8], failing sink: PlainSink)
        throws(PlainJSONEncoder.Unsupported) -> Bool
    {
        // Comparing metatypes is much cheaper than a dynamic cast for every value of a message.
        if T.self == String.self {
            do {
                try PlainJSONString.append(cast(value), to: &bytes)
            } catch {
                throw sink.fail()
            }
        } else if T.self == Int.self {
            JSONDigits.append(cast(value) as Int, to: &bytes)
        } else if T.self == Bool.self {
            bytes.append(contentsOf: (cast(value) as Bool ? "true" : "false").utf8)
        } else if T.self == Int64.self {
            JSONDigits.append(cast(value) as Int64, to: &bytes)
        } else if T.self == UInt64.self {
            JSONDigits.append(cast(value) as UInt64, to: &bytes)
        } else if T.self == Int32.self {
            JSONDigits.append(cast(value) as Int32, to: &bytes)
        } else if T.self == UInt32.self {
            JSONDigits.append(cast(value) as UInt32, to: &bytes)
        } else if T.self == Double.self || T.self == Float.self || WireJSON.isSpecialCased(T.self) {
            throw sink.fail()
        } else {
            return false
        }
        return true
    }

    /// `value` as `U`, which is its type.
    private static func cast<T, U>(_ value: T) -> U {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: U.self, capacity: 1) { $0.pointee } }
    }
}
