import Glibc
import SyncLock

/// Random bytes from the kernel's generator, drawn a page at a time: one system
/// call serves 256 identifiers, where drawing each one costs two (the daemon accepts an action
/// in a few microseconds, and the calls were a twentieth of that). The bytes are the kernel's
/// CSPRNG output either way; each is handed out once.
final class RandomBytes: Sendable {
    /// The one pool of the process.
    static let shared = RandomBytes()

    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: RandomBytes.poolSize)
        var next = RandomBytes.poolSize
    }

    private static let poolSize = 4096
    private let pool = Locked(Pool())

    /// The next 16 random bytes, as two words.
    func next128() -> (UInt64, UInt64) {
        pool.withLock { pool in
            if pool.next + 16 > pool.bytes.count {
                pool.bytes.withUnsafeMutableBytes { Self.fill($0) }
                pool.next = 0
            }
            defer { pool.next += 16 }
            return pool.bytes.withUnsafeBytes { raw in
                (
                    raw.loadUnaligned(fromByteOffset: pool.next, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: pool.next + 8, as: UInt64.self)
                )
            }
        }
    }

    /// Fills `buffer` from the kernel's generator (`/dev/urandom`, kept open; Glibc's module
    /// does not declare `getrandom`), or from the standard library's generator, which asks the
    /// same kernel generator 8 bytes at a time, if the device cannot be read.
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var filled = 0
        while filled < buffer.count, urandom >= 0 {
            let count = read(urandom, buffer.baseAddress! + filled, buffer.count - filled)
            if count > 0 {
                filled += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        var generator = SystemRandomNumberGenerator()
        while filled < buffer.count {
            buffer[filled] = generator.next()
            filled += 1
        }
    }

    /// The kernel's generator, opened once for the life of the process (close-on-exec).
    private static let urandom: Int32 = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
}
