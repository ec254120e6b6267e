/// Reading the version of a todod `update` cheaply, for subscribers that must keep up with a
/// daemon being timed.
enum UpdateFrame {
    /// The version of an `update` frame, `nil` for another message. The daemon writes keys
    /// sorted, so an update ends with `"type":"update","version":V}`: reading its tail spares
    /// the reading thread a JSON decode of megabytes. Anything else is decoded in full.
    static func version(of frame: [UInt8]) throws(BenchError) -> UInt64? {
        let tail = String(decoding: frame.suffix(64), as: UTF8.self)
        if let marker = tail.range(of: #""type":"update","version":"#), tail.hasSuffix("}"),
            let version = UInt64(tail[marker.upperBound...].dropLast())
        {
            return version
        }
        guard case .update(_, let version, _) = try FrameSocket.reply(frame, from: "todod") else { return nil }
        return version
    }
}
