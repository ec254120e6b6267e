/// The side effects clients dispatched that are running, by the call id the engine gave them:
/// whose request each answers. A cancelled call stays counted until it ends, so that clients
/// reconnecting in a loop cannot pile up tasks that ignore cancellation.
struct SideEffectCallBook {
    /// A running call: the connection that started it and its request in the `RequestBook`.
    struct Call {
        let connectionID: Int
        let token: RequestBook.Token
        /// Whether it was cancelled (its client went); it still runs until its task ends.
        var isCancelled = false
    }

    private var calls: [Int: Call] = [:]
    private var nextCallID = 1
    /// Whether new calls may start (not after the daemon began stopping).
    private(set) var isAccepting = true

    /// How many calls are running, those cancelled but not yet ended included.
    var runningCount: Int { calls.count }

    /// How many calls of connection `connectionID` are running.
    func runningCount(of connectionID: Int) -> Int {
        calls.values.reduce(0) { $0 + ($1.connectionID == connectionID ? 1 : 0) }
    }

    /// Enters a call for `token` of connection `connectionID`; returns its id.
    mutating func start(connectionID: Int, token: RequestBook.Token) -> Int {
        precondition(isAccepting, "a side effect started after shutdown began")
        let id = nextCallID
        nextCallID += 1
        calls[id] = Call(connectionID: connectionID, token: token)
        return id
    }

    /// Marks the calls of connection `connectionID` cancelled (its client went) and returns
    /// the ids of those not cancelled before.
    mutating func cancel(of connectionID: Int) -> [Int] {
        let ids = calls.filter { $0.value.connectionID == connectionID && !$0.value.isCancelled }.map(\.key).sorted()
        for id in ids { calls[id]?.isCancelled = true }
        return ids
    }

    /// Whether call `id` runs and was not cancelled: what it dispatches is applied.
    func isLive(_ id: Int) -> Bool { calls[id].map { !$0.isCancelled } ?? false }

    /// The call `id`, while it runs.
    func call(_ id: Int) -> Call? { calls[id] }

    /// Takes the call `id` out: it ended.
    mutating func finish(_ id: Int) -> Call? { calls.removeValue(forKey: id) }

    /// Takes every call out and accepts no more (the daemon is stopping).
    mutating func stop() -> [(id: Int, call: Call)] {
        isAccepting = false
        defer { calls = [:] }
        return calls.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
