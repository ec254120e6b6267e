/// Counts a browser's dispatches per second: a fixed one-second window, enough to stop a
/// flood without tracking each message's time.
struct RateWindow {
    /// The most dispatches in one window.
    let limit: Int
    private var windowStart: UInt64 = 0
    private var count = 0

    /// A window allowing `limit` dispatches a second.
    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one dispatch at `now` (milliseconds); `false` when the window is full.
    mutating func admit(at now: UInt64) -> Bool {
        if now >= windowStart + 1000 {
            windowStart = now
            count = 0
        }
        guard count < limit else { return false }
        count += 1
        return true
    }
}
