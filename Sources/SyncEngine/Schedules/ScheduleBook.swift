/// Where each of the app's schedules is: dispatched and waiting to be durable, refused at a
/// version, and the wake-up asked for.
struct ScheduleBook {
    /// The schedules whose action was applied and is not durable yet, by index.
    private(set) var pending: Set<Int> = []
    /// The version at which a schedule's action was refused, by index: not dispatched again
    /// until the state changes.
    private var refusedAt: [Int: UInt64] = [:]
    /// The time of the wake-up asked for, if one is.
    var wakeUp: Int64?

    /// Whether schedule `index` may dispatch at `version`.
    func mayDispatch(_ index: Int, at version: UInt64) -> Bool {
        !pending.contains(index) && refusedAt[index] != version
    }

    /// Schedule `index` dispatched its action.
    mutating func dispatched(_ index: Int) {
        pending.insert(index)
    }

    /// The action of schedule `index` is durable.
    mutating func settled(_ index: Int) {
        pending.remove(index)
        refusedAt[index] = nil
    }

    /// The action of schedule `index` was refused at `version`, or its commit failed.
    mutating func refused(_ index: Int, at version: UInt64) {
        pending.remove(index)
        refusedAt[index] = version
    }
}
