/// The side effects clients dispatched that are running, by the call id the engine gave them:
/// whose request each answers. A cancelled call stays counted until it ends, so that clients
/// reconnecting in a loop cannot pile up tasks that ignore cancellation.
struct SideEffectCallBook {
    /// A running call: the connection that started it and its request in the `RequestBook`.
    struct Call {
        let connectionID: Int
        let token: RequestBook.Token
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

    /// The ids of the calls of connection `connectionID`, to be cancelled: it is gone.
    func calls(of connectionID: Int) -> [Int] {
        calls.filter { $0.value.connectionID == connectionID }.map(\.key).sorted()
    }

    /// Takes the call `id` out: it ended.
    mutating func finish(_ id: Int) -> Call? { calls.removeValue(forKey: id) }

    /// Takes every call out and accepts no more (the daemon is stopping).
    mutating func stop() -> [(id: Int, call: Call)] {
        isAccepting = false
        defer { calls = [:] }
        return calls.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
