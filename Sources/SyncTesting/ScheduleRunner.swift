import SyncStore

/// Runs a `Schedule` in a test store on its test clock, as the daemon runs it: what is due is
/// dispatched (and waits for `receive`), the rest waits for the clock to reach it; a refused
/// action is not dispatched again until the state changes.
struct ScheduleRunner<S: Schedule, Dependencies: SideEffectDependencies>: SideEffect where S.State: Sendable {
    /// How long the runner sleeps on the clock when nothing is due, in milliseconds.
    static var idleMilliseconds: Int64 { 1000 }

    let schedule: S

    func run(_ context: SideEffectContext<S.State, Dependencies>) async {
        let clock = context.dependencies.clock
        var refusedAt: UInt64?
        while !Task.isCancelled {
            let (state, version) = context.currentState()
            var sleep = Self.idleMilliseconds
            if refusedAt != version, let next = schedule.next(in: state) {
                let now = clock.now()
                if next.due <= now {
                    do {
                        _ = try await context.dispatch(next.action)
                        refusedAt = nil
                    } catch {
                        refusedAt = version
                    }
                    continue
                }
                sleep = next.due - now
            }
            do {
                try await clock.sleep(milliseconds: sleep)
            } catch {
                return
            }
        }
    }
}
