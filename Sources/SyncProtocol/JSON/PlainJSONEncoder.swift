/// Encodes `Encodable` values to the bytes `WireJSON.makeEncoder()` would write, several times
/// faster, for the plain values most messages hold: what every dispatch journals and every
/// SyncClient dispatch sends.
///
/// Plain means: strings of printable ASCII (where only `"` and `\` are escaped), integers,
/// booleans, nulls, arrays, and objects whose keys sort the same bytewise and ignoring case
/// with no digits in them (so that the sorted-keys order cannot depend on how the encoder
/// compares keys). Anything else (a floating-point number, a `Date`, `Data`, `URL` or
/// `Decimal`, a string with control characters or beyond ASCII, a `superEncoder`) throws
/// `Unsupported`, and `WireJSON.encode` then asks `JSONEncoder`. So does any error thrown
/// while encoding, even one the value catches itself: what it wrote then is left to
/// `JSONEncoder` too.
///
/// The bytes are written as the values are encoded, into one buffer (`PlainSink`): a value
/// whose `encode(to:)` has returned is complete, so an array appends each element in place,
/// and an object sorts its members, which lie one after another at the end of the buffer,
/// where they are. Only a container handed out by `nestedContainer` or
/// `nestedUnkeyedContainer` has a buffer of its own, since it may be filled at any time before
/// its parent completes. The memory it takes beyond the output is the small members of the
/// objects being completed, not a tree of the document.
enum PlainJSONEncoder {
    /// The value holds something this encoder leaves to `JSONEncoder`.
    struct Unsupported: Error {}

    /// The encoding of `value`, or throws.
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let sink = PlainSink()
        sink.bytes.reserveCapacity(128)
        let encoder = PlainValueEncoder(sink: sink)
        try encoder.encode(value)
        encoder.finish()
        guard !sink.failed else { throw Unsupported() }
        return sink.bytes
    }
}
