/// A browser connection's identity in the gateway: a number given when it is established and
/// never given again, so that an answer arriving after its browser left reaches no other one
/// (a libwebsockets `wsi`'s address is reused by the next connection).
struct SessionID: Hashable, Sendable {
    /// The number.
    let raw: UInt64
}
