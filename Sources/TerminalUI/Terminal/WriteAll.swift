import Glibc

/// Writes all of `bytes` to `descriptor`, retrying after interruptions, and gives up at an
/// error (a closed terminal or pipe has nobody left to read it). It only calls `write(2)`, so a
/// signal handler may use it.
public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
