import Glibc
import SyncLock
import SyncProtocol

/// Standard output as the runner reads it: one JSON object per line, whole lines only, from
/// any task.
final class AdapterOutput: Sendable {
    private let lock = PthreadMutex()

    /// Writes `message` and a line feed, and flushes.
    func write(_ message: [String: JSONValue]) {
        let bytes = (try? WireJSON.encode(JSONValue.object(message))) ?? Array(#"{"error":"unencodable"}"#.utf8)
        let line = bytes + [UInt8(ascii: "\n")]
        lock.run {
            line.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(1, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    if written <= 0 { return } // the runner is gone: nothing left to tell it
                    offset += written
                }
            }
        }
    }
}
