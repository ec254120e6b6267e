import Glibc

/// The one clock every figure reads: `CLOCK_MONOTONIC` in nanoseconds. All clients of a figure
/// live in this process, so a time taken on one thread compares with one taken on another.
enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Sleeps until `deadline` (a value of `now()`); returns at once if it has passed.
    static func sleep(until deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }

    /// Sleeps for `seconds`.
    static func sleep(seconds: Double) {
        sleep(until: now() + UInt64(seconds * 1e9))
    }

    /// Seconds elapsed between two readings.
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end &- start) / 1e9
    }

    /// Polls `probe` every `interval` seconds until it returns a value, or throws `.timedOut`
    /// naming `what` after `timeout` seconds.
    @discardableResult
    static func poll<T>(
        _ what: @autoclosure () -> String, timeout: Double, interval: Double = 0.001,
        _ probe: () throws(BenchError) -> T?
    ) throws(BenchError) -> T {
        let deadline = now() + UInt64(timeout * 1e9)
        while true {
            if let value = try probe() { return value }
            if now() > deadline { throw .timedOut(what()) }
            sleep(seconds: interval)
        }
    }

    /// `poll` for async code: sleeps with `Task.sleep`, so that no thread of the cooperative
    /// pool is held while waiting.
    static func pollFromTask(_ what: @autoclosure () -> String, timeout: Double, _ condition: () -> Bool) async throws {
        let deadline = now() + UInt64(timeout * 1e9)
        while !condition() {
            if now() > deadline { throw BenchError.timedOut(what()) }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}
