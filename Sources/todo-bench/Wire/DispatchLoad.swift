import SyncProtocol
import TodoDomain

/// The requests the throughput figures send, built once so that sending costs only a write.
///
/// The action is `edit` of an existing item with a 128-character text: like redis-benchmark's
/// `SET key <128 bytes>`, it overwrites a value of that size and leaves the state's size as it
/// was, however many are sent.
enum DispatchLoad {
    /// The 128-character text of every edit.
    static let text = String(repeating: "x", count: 128)

    /// The edit action SyncClient sends for item `number`.
    static func action(number: Int) -> EditItem {
        EditItem(number: number, text: text)
    }

    /// The framed `dispatch` of the edit of item `number`, with request id `id`.
    static func frame(id: Int64, number: Int) -> [UInt8] {
        FrameEncoder.frame(
            FrameSocket.encode {
                try DispatchRequest(id: id, actionName: EditItem.wireName).encoded(payload: action(number: number))
            })
    }

    /// The framed `dispatch` of an `add` of `text`, with request id `id` (the figures that grow
    /// the state).
    static func addFrame(id: Int64, text: String) -> [UInt8] {
        FrameEncoder.frame(
            FrameSocket.encode {
                try DispatchRequest(id: id, actionName: AddItem.wireName).encoded(payload: AddItem(text: text))
            })
    }

    /// Checks that `payload` is an `ack` without decoding all of it (a pipelined writer reads
    /// tens of thousands per second); anything else is thrown with its text.
    static func expectAck(_ payload: [UInt8], from path: String) throws(BenchError) {
        guard contains(payload, ackMarker) else {
            throw .unexpectedReply(from: path, reply: String(decoding: payload.prefix(300), as: UTF8.self))
        }
    }

    private static let ackMarker = Array(#""type":"ack""#.utf8)

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}
