import SyncLock
import SyncProtocol
import SyncStore

@testable import SyncEngine

/// Counts the work the daemon does for the models that share it.
final class WorkCounter: Sendable {
    private let counts = Locked((computed: 0, encoded: 0))

    /// Models made from a state.
    var computed: Int { counts.withLock { $0.computed } }
    /// Models encoded.
    var encoded: Int { counts.withLock { $0.encoded } }

    func didCompute() { counts.withLock { $0.computed += 1 } }
    func didEncode() { counts.withLock { $0.encoded += 1 } }
}

/// A state of strings that carries the counter of the models made from it.
struct CountedState {
    var values: [String]
    var counter = WorkCounter()
}

/// The state's values, counting every time it is computed and encoded.
struct CountedModel: ViewModel {
    static let wireName = "counted"
    /// The hub pair of this model.
    static var key: ViewKey { ViewKey(viewModel: wireName, params: AnyHashable(NoParams())) }
    /// The first subscriber, on connection 1 with subscription 1.
    static var subscriber: ViewSubscriber { ViewSubscriber(connectionID: 1, subscription: 1) }

    var values: [String]
    private let counter: WorkCounter?

    init(state: CountedState, params: NoParams) {
        values = state.values
        counter = state.counter
        state.counter.didCompute()
    }

    init(from decoder: any Decoder) throws {
        values = try [String](from: decoder)
        counter = nil
    }

    func encode(to encoder: any Encoder) throws {
        counter?.didEncode()
        try values.encode(to: encoder)
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.values == rhs.values }

    /// A new view source of this model, as the server makes one for a new pair.
    static func source() -> any ViewSource<CountedState> {
        TypedViewSource<CountedModel>(params: NoParams())
    }
}

/// The frames of a drained buffer, decoded; the buffer is freed.
func decodedFrames(_ buffer: UnsafeMutableRawBufferPointer?) throws -> [ServerReply] {
    guard let buffer else { return [] }
    defer { buffer.deallocate() }
    var decoder = FrameDecoder(maximumLength: 1 << 30)
    decoder.append(UnsafeRawBufferPointer(buffer))
    var replies: [ServerReply] = []
    while let payload = try decoder.next() { replies.append(try ServerReply.decode(payload)) }
    return replies
}

extension ServerReply {
    /// The version of an update, `nil` for another message.
    var version: UInt64? {
        guard case .update(_, let version, _) = self else { return nil }
        return version
    }

    /// The version the patch of an update applies to, `nil` for a whole model or another message.
    var base: UInt64? {
        guard case .update(_, _, let base) = self else { return nil }
        return base
    }
}
