/// The one buffer every connection of a loop reads into.
///
/// libuv asks for a buffer just before it reads one stream and hands the bytes to that stream's
/// read callback at once, which copies them into the connection's frame decoder; so one buffer
/// serves all connections, and an idle connection costs no read buffer at all. Loop-confined:
/// not `Sendable`.
final class ReadBuffer {
    /// The bytes.
    let bytes: UnsafeMutableRawBufferPointer

    /// A buffer of `byteCount` bytes.
    init(byteCount: Int) {
        bytes = .allocate(byteCount: byteCount, alignment: 16)
    }

    deinit {
        bytes.deallocate()
    }
}
