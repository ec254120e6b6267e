/// A view model's whole encoded form, encoded the first time someone needs it: when every
/// subscriber takes patches, a model that can list its own changes is never encoded whole.
/// Loop-confined: not `Sendable`.
final class EncodedModel {
    private var encode: (() -> [UInt8])?
    private var encoded: [UInt8] = []

    /// A model encoded by `encode` when first asked.
    init(_ encode: @escaping () -> [UInt8]) {
        self.encode = encode
    }

    /// An already encoded model.
    init(bytes: [UInt8]) {
        encoded = bytes
    }

    /// The size of the encoded model if it was encoded, else `nil`.
    var encodedByteCount: Int? { encode == nil ? encoded.count : nil }

    /// The encoded model.
    var bytes: [UInt8] {
        if let encode {
            encoded = encode()
            self.encode = nil
        }
        return encoded
    }
}
