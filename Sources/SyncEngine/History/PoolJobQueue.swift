/// Work of one kind a server runs on the thread pool at once, and what waits for a turn: at most
/// `concurrencyLimit` run (each holds a thread-pool thread, which the journal's commits share),
/// at most `waitingLimit` wait. The rebuilds of past versions have one (which also holds the
/// journal's job while it reads), the encodings of history answers another. Loop-confined.
struct PoolJobQueue {
    /// Most running at once.
    let concurrencyLimit: Int
    /// Most waiting for a turn; one more is refused.
    let waitingLimit: Int
    private(set) var running = 0
    private var waiting: [() -> Void] = []

    /// A queue with these limits.
    init(concurrencyLimit: Int, waitingLimit: Int) {
        self.concurrencyLimit = max(1, concurrencyLimit)
        self.waitingLimit = max(0, waitingLimit)
    }

    /// Runs `start` now if a slot is free, else queues it; `false` when the queue is full (the
    /// work is refused). `start` must lead to exactly one `finished()`, when its work ends.
    mutating func admit(_ start: @escaping () -> Void) -> Bool {
        if running < concurrencyLimit {
            running += 1
            start()
            return true
        }
        guard waiting.count < waitingLimit else { return false }
        waiting.append(start)
        return true
    }

    /// Ends a running one; returns the next one to start, already counted as running.
    mutating func finished() -> (() -> Void)? {
        running -= 1
        guard !waiting.isEmpty else { return nil }
        running += 1
        return waiting.removeFirst()
    }
}
