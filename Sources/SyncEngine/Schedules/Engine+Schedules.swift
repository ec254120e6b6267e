import SyncProtocol

/// Durable schedules (`Schedule`): after each new version, and when the wake-up asked for
/// comes, each schedule says what is due in the published state; what is due now is
/// dispatched like any action, the rest sets the next wake-up. A daemon of a shared log
/// dispatches them only while it is the leader.
///
/// ```
/// publish / wakeUp ─▶ next(in: published) ─due─▶ apply ─durable─▶ settled ─▶ next(in:) again
///                                       └later─▶ wakeIn(ms)   └refused─▶ not again at this version
/// ```
extension Engine {
    /// Dispatches what is due and asks for a wake-up at the next due time.
    func runSchedules() {
        guard hasSchedules else { return }
        guard case .serving = shutdown, writeRefusal == nil, isScheduleLeader else {
            setWakeUp(nil, now: 0)
            return
        }
        let now = dependencies.clock.now()
        var earliest: Int64?
        for (index, schedule) in schedules.enumerated() where scheduleBook.mayDispatch(index, at: publishedVersion) {
            guard let next = schedule.next(in: publishedState) else { continue }
            if next.due <= now {
                scheduleBook.dispatched(index)
                apply(next.action, requester: .schedule(index))
            } else {
                earliest = min(earliest ?? next.due, next.due)
            }
        }
        setWakeUp(earliest, now: now)
    }

    /// The action of schedule `index` is durable (`durable`) or failed with `error`.
    func scheduleDidSettle(_ index: Int, failure error: ProtocolError?) {
        guard let error else {
            scheduleBook.settled(index)
            return
        }
        log(.warning, "a scheduled action was not applied: \(error.message)")
        guard error.code != .storageUnavailable else {
            // Not refused: the journal failed. Tried again shortly.
            scheduleBook.settled(index)
            scheduleBook.wakeUp = nil
            setWakeUp(dependencies.clock.now() + Self.scheduleRetryMilliseconds, now: dependencies.clock.now())
            return
        }
        scheduleBook.refused(index, at: publishedVersion)
    }

    /// How long after a failed commit a scheduled action is tried again.
    static var scheduleRetryMilliseconds: Int64 { 1000 }

    /// The wake-up asked for came: what is due now is dispatched.
    func wakeUp() {
        scheduleBook.wakeUp = nil
        runSchedules()
    }

    /// Whether this daemon dispatches the schedules: always with a journal of its own, only as
    /// the leader of a shared log.
    private var isScheduleLeader: Bool {
        guard configuration.isShared else { return true }
        return sharedLog?.isLeader ?? false
    }

    private func setWakeUp(_ due: Int64?, now: Int64) {
        guard due != scheduleBook.wakeUp else { return }
        scheduleBook.wakeUp = due
        emit(.wakeIn(milliseconds: due.map { max(0, $0 - now) }))
    }
}
