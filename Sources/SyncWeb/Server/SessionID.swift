/// A browser connection's identity in the gateway: the address of its libwebsockets `wsi`,
/// which stays the same from its establishment to its close.
struct SessionID: Hashable, Sendable {
    /// The pointer's bits.
    let raw: UInt
}
