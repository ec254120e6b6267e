/// Reading the version an `update` frame shows.
enum UpdateFrame {
    /// What ends an update's JSON before its version's digits.
    private static let versionMarker = Array(#""type":"update","version":"#.utf8)

    /// The version of an `update` frame, `nil` for another message. The daemon writes keys
    /// sorted, so an update ends with `"type":"update","version":V}`: reading its tail spares
    /// the reading thread a JSON decode of megabytes, and one thread reading a hundred
    /// subscribers the time a text search would add to their latencies. Anything else is
    /// decoded in full.
    static func version(of frame: [UInt8]) throws(BenchError) -> UInt64? {
        if let version = tailVersion(of: frame) { return version }
        guard case .update(_, let version, _) = try FrameSocket.reply(frame, from: "todod") else { return nil }
        return version
    }

    /// The digits between `versionMarker` and the closing brace that ends `frame`, if it ends so.
    private static func tailVersion(of frame: [UInt8]) -> UInt64? {
        guard let end = frame.indices.last, frame[end] == UInt8(ascii: "}") else { return nil }
        var start = end
        while start > 0, frame[start - 1] &- UInt8(ascii: "0") < 10 { start -= 1 }
        guard start < end, start >= versionMarker.count,
            frame[(start - versionMarker.count)..<start].elementsEqual(versionMarker)
        else { return nil }
        // A version has at most 20 digits: a small string, made without an allocation.
        return UInt64(String(decoding: frame[start..<end], as: UTF8.self))
    }
}
