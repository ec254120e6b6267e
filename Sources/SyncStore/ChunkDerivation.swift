/// Values derived from each chunk of a `ChunkedArray`, made again only for chunks that changed.
///
/// A view model of a long list derives its rows chunk by chunk, and keeps this beside them: the
/// next version derives from `previous`, reusing the value of every chunk that is still the same
/// object (chunks never change, so its elements are the same). A change costs the chunks it
/// replaced plus about one identity comparison per chunk, not one derivation per element.
public struct ChunkDerivation<Source: Sendable, Value: Sendable>: Sendable {
    /// The chunks derived from, kept alive so that identity comparisons stay meaningful.
    public let sources: [ChunkedArray<Source>.Chunk]
    /// One value per chunk of `sources`, in order.
    public let values: [Value]

    /// `derive` applied to every chunk of `array`, except those `previous` already derived.
    /// Only pass a `previous` made with a `derive` that gives the same value for the same
    /// elements (one that captured other settings, such as a filter, gives other values).
    @inlinable
    public init(_ array: ChunkedArray<Source>, reusing previous: Self? = nil, _ derive: ([Source]) -> Value) {
        let chunks = array.chunks
        let matches =
            previous.map { ChunkedArray.matches(from: $0.sources, to: chunks) }
            ?? Array(repeating: nil, count: chunks.count)
        let previousValues = previous?.values ?? []
        var values: [Value] = []
        values.reserveCapacity(chunks.count)
        for (index, chunk) in chunks.enumerated() {
            values.append(matches[index].map { previousValues[$0] } ?? derive(chunk.elements))
        }
        self.init(sources: chunks, values: values)
    }

    @usableFromInline
    init(sources: [ChunkedArray<Source>.Chunk], values: [Value]) {
        self.sources = sources
        self.values = values
    }
}
