import SyncEngine
import SyncJournal
import SyncStore
import Testing

/// Adds 1 at `due` until the tally reaches `until` (or adds `by` once, to be refused).
struct TallySchedule: Schedule {
    var due: Int64
    var until: Int
    var by = 1

    func next(in state: TallyApp.State) -> ScheduledAction<TallyApp.State>? {
        state.count < until ? ScheduledAction(due: due, action: Add(by: by)) : nil
    }
}

/// Durable schedules on the engine alone: dispatched when due, once each, not while one is
/// pending, not again after a refusal until the state changes, by the leader only.
@Suite struct EngineScheduleTests {
    @Test func anActionIsDispatchedWhenDueOnceAtATimeUntilTheStateNoLongerListsIt() {
        let harness = EngineHarness(schedules: [TallySchedule(due: 1_500, until: 2)])
        #expect(harness.wakeUps == [500], "due in 500 ms by the app's clock")
        #expect(harness.heldCommit == nil)

        harness.clock.advance(by: 500)
        harness.feed(.wakeUp)
        #expect(harness.heldCommit?.entries.map(\.name) == ["add"])
        harness.feed(.wakeUp)
        harness.settle()
        #expect(harness.journal.count == 1, "not dispatched again while the first was pending")
        #expect(harness.heldCommit?.entries.map(\.version) == [2], "still due: the tally is 1 of 2")
        harness.settle()
        #expect(harness.engine.appliedStore.state.count == 2)
        #expect(harness.heldCommit == nil && harness.wakeUps == [500], "nothing more is scheduled")
    }

    @Test func whatIsDueAtStartIsDispatchedAtOnce() {
        let harness = EngineHarness(
            commitMode: .inline, schedules: [TallySchedule(due: 0, until: 1)])
        #expect(harness.journal.map(\.name) == ["add"])
        #expect(harness.engine.durableVersion == 1)
    }

    @Test func aRefusedActionIsNotDispatchedAgainUntilTheStateChanges() {
        let harness = EngineHarness(commitMode: .inline, schedules: [TallySchedule(due: 0, until: 50, by: 1000)])
        #expect(harness.journal.isEmpty)
        #expect(harness.logs.contains { $0.level == .warning && $0.text.contains("the tally would pass 100") })
        harness.feed(.wakeUp)
        #expect(harness.logs.filter { $0.text.contains("scheduled action") }.count == 1, "not tried again")
        harness.greet(1)
        harness.add(1, id: 1)
        #expect(harness.logs.filter { $0.text.contains("scheduled action") }.count == 2, "tried at the new version")
    }

    @Test func onASharedLogOnlyTheLeaderDispatches() {
        let harness = EngineHarness(shared: true, schedules: [TallySchedule(due: 0, until: 1)])
        #expect(harness.heldCommit == nil, "not the leader yet")
        var leader = SharedLogObservation.unknown
        leader.isLeader = true
        harness.feed(.sharedLogObserved(leader))
        #expect(harness.heldCommit?.entries.map(\.name) == ["add"])
    }

    @Test func aScheduledActionOvertakenOnASharedLogIsAskedForAgainNotReRun() {
        let harness = EngineHarness(shared: true, schedules: [TallySchedule(due: 0, until: 1)])
        var leader = SharedLogObservation.unknown
        leader.isLeader = true
        harness.feed(.sharedLogObserved(leader))
        let unsaved = harness.heldCommit!.entries
        // The leader before this one dispatched the same action, and it reached the log first.
        let foreign = JournalEntry(
            version: 1, name: "add", payload: Array(#"{"by":1}"#.utf8), acceptedAt: 1, peerUID: nil, peerPID: nil,
            host: "the previous leader")
        harness.settle(.overtaken(foreign: [foreign], unsaved: unsaved))
        #expect(harness.heldCommit == nil, "the schedule, asked again, has nothing due")
        #expect(harness.engine.appliedStore.state.count == 1, "applied once, not twice")
    }
}
