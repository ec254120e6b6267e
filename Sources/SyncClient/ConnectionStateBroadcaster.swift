import SyncLock

/// Keeps the current `ConnectionState` and hands every change to the streams watching it.
/// There is none before the first connection's handshake completed (`SyncClient.connect`
/// returns only after it did).
final class ConnectionStateBroadcaster: Sendable {
    private struct Watchers {
        var current: ConnectionState?
        var continuations: [Int: AsyncStream<ConnectionState>.Continuation] = [:]
        var nextKey = 0
    }

    private let watchers: Locked<Watchers>

    init() {
        watchers = Locked(Watchers())
    }

    /// The state now, once there is one.
    var current: ConnectionState? { watchers.withLock { $0.current } }

    /// A stream that yields the state now (if there is one yet), then each change; it ends
    /// after `.closed`.
    func stream() -> AsyncStream<ConnectionState> {
        AsyncStream(bufferingPolicy: .bufferingNewest(16)) { continuation in
            // The current state is yielded under the lock, so that no change published meanwhile
            // can come before it.
            let key = watchers.withLock { watchers in
                let key = watchers.nextKey
                watchers.nextKey += 1
                if let current = watchers.current { continuation.yield(current) }
                if case .closed = watchers.current {
                    continuation.finish()
                } else {
                    watchers.continuations[key] = continuation
                }
                return key
            }
            // Holds the watchers, not the broadcaster: the cycle this makes (watchers,
            // continuation, this closure) ends when the stream ends or the state is closed,
            // and no weak reference is needed (the runtime's side table of a weakly referenced
            // object that lives until exit reads as a leak to LeakSanitizer).
            let watchers = watchers
            continuation.onTermination = { _ in
                _ = watchers.withLock { $0.continuations.removeValue(forKey: key) }
            }
        }
    }

    /// Records `state` and tells every watcher when it differs from the current one; nothing
    /// changes once closed.
    func publish(_ state: ConnectionState) {
        let continuations = watchers.withLock { watchers -> [AsyncStream<ConnectionState>.Continuation] in
            if case .closed = watchers.current { return [] }
            if watchers.current == state { return [] }
            watchers.current = state
            let continuations = Array(watchers.continuations.values)
            if case .closed = state { watchers.continuations.removeAll() }
            return continuations
        }
        for continuation in continuations {
            continuation.yield(state)
            if case .closed = state { continuation.finish() }
        }
    }
}
