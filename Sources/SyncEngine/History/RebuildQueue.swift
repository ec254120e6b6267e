/// The rebuilds of past versions a server runs at once, and those waiting for a turn: at most
/// `concurrencyLimit` run (each holds a thread-pool thread while it replays, and the journal's
/// job while it reads), at most `waitingLimit` wait. Loop-confined.
struct RebuildQueue {
    /// Most rebuilds running at once.
    let concurrencyLimit: Int
    /// Most rebuilds waiting for a turn; one more is refused.
    let waitingLimit: Int
    private(set) var running = 0
    private var waiting: [() -> Void] = []

    /// A queue with these limits.
    init(concurrencyLimit: Int, waitingLimit: Int) {
        self.concurrencyLimit = max(1, concurrencyLimit)
        self.waitingLimit = max(0, waitingLimit)
    }

    /// Runs `start` now if a slot is free, else queues it; `false` when the queue is full (the
    /// rebuild is refused). `start` must call `finished()` exactly once, when its rebuild ends.
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

    /// Ends a running rebuild; returns the next one to start, already counted as running.
    mutating func finished() -> (() -> Void)? {
        running -= 1
        guard !waiting.isEmpty else { return nil }
        running += 1
        return waiting.removeFirst()
    }
}
