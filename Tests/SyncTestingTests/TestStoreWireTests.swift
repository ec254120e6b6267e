import SyncStore
import SyncTesting
import Testing

private func makeStore(clock: TestClock = TestClock(now: 5_000)) -> TestStore<CounterApp> {
    TestStore(CounterApp.self, dependencies: StandardDependencies(clock: clock, ids: SequentialIDs()))
}

/// The test store takes the daemon's path: registration, the wire, the journal's replay, and
/// waits that end with a message instead of hanging.
@Suite struct TestStoreWireTests {
    @Test func anActionTheAppDoesNotRegisterFails() throws {
        let store = makeStore()
        try withKnownIssue {
            try store.send(Unregistered())
        } matching: {
            String(describing: $0).contains("\"unregistered\" is not in CounterApp.actions")
        }
        #expect(store.version == 0, "not applied")
    }

    @Test func anActionWhoseCodableLosesWhatAcceptanceFixedReplaysAsItWasApplied() throws {
        let store = makeStore()
        // Journaled as received, accepted again on replay: the lost time is fixed again.
        try store.send(ForgetfulStamp()) { $0.stamps = [CounterApp.Stamp(id: "", at: 5_000)] }
    }

    @Test func anActionReadingTheStateWhoseCodableLosesWhatAcceptanceFixedFailsAsItWouldDivergeOnReplay() throws {
        let store = makeStore()
        try store.send(Increment(by: 2)) { $0.count = 2 }
        try withKnownIssue {
            try store.send(ForgetfulCountStamp()) { $0.stamps = [CounterApp.Stamp(id: "count", at: 2)] }
        } matching: {
            String(describing: $0).contains("diverges on replay")
                && String(describing: $0).contains("its Codable loses something acceptance fixed")
        }
    }

    @Test func anActionWhoseAcceptanceReadsTheStateUndeclaredFails() throws {
        let store = makeStore()
        try store.send(Increment(by: 2)) { $0.count = 2 }
        try withKnownIssue {
            try store.send(UndeclaredCountStamp()) { $0.stamps = [CounterApp.Stamp(id: "count", at: 2)] }
        } matching: {
            String(describing: $0).contains("does not declare `acceptanceReadsState`")
        }
        #expect(store.state.stamps == [CounterApp.Stamp(id: "count", at: 2)], "applied as the daemon applies it")
    }

    @Test func aViewModelIsReadAsASubscriberGetsItAndAnUnregisteredOneFails() throws {
        let store = makeStore()
        try store.send(Increment(by: 3)) { $0.count = 3 }
        #expect(store.model(CountModel.self, params: NoParams()) == CountModel(state: store.state, params: NoParams()))
        withKnownIssue {
            _ = store.model(UnregisteredModel.self, params: NoParams())
        } matching: {
            String(describing: $0).contains("not in CounterApp.viewModels")
        }
    }

    @Test func runningASideEffectThatSleepsOnTheTestClockFailsWithAClearMessage() async throws {
        let store = makeStore()
        await withKnownIssue {
            _ = try? await store.run(IncrementLater(milliseconds: 1_000))
        } matching: {
            String(describing: $0).contains("it sleeps on the test clock, which only the test moves")
        }
        await store.finish()
    }

    @Test func anotherSideEffectAsleepOnTheTestClockDoesNotFailARunThatTakesLonger() async throws {
        let clock = TestClock(now: 5_000)
        let store = makeStore(clock: clock)
        let asleep = store.start(IncrementLater(milliseconds: 1_000))
        #expect(try await store.run(IncrementAfterRealTime(milliseconds: 1_500)) == 1)
        await store.receive(Increment.self) { $0.count = 1 }
        await clock.waitForSleepers()
        await store.advance(by: 1_000)
        await store.receive(Increment.self) { $0.count = 2 }
        #expect(try await asleep.value == 2)
        await store.finish()
    }

    @Test func aSideEffectThatSleepsIsStartedThenTheClockAdvanced() async throws {
        let store = makeStore()
        let task = store.start(IncrementLater(milliseconds: 1_000))
        await store.advance(by: 1_000)
        await store.receive(Increment.self) { $0.count = 1 }
        #expect(try await task.value == 1, "the version of its action")
        await store.finish()
    }

    @Test func finishFailsOnASideEffectStillRunning() async throws {
        let store = makeStore()
        let task = store.start(IncrementLater(milliseconds: 60_000))
        await withKnownIssue {
            await store.finish()
        } matching: {
            String(describing: $0).contains("still running at finish(): incrementLater")
        }
        task.cancel()
    }
}

/// `send(batch:)` applies all or nothing, as the daemon's `batch` does.
@Suite struct TestStoreBatchTests {
    @Test func aBatchAppliesTogether() throws {
        let store = makeStore()
        try store.send(batch: [Increment(by: 2), StampNow()]) {
            $0.count = 2
            $0.stamps = [CounterApp.Stamp(id: "00000000-0000-4000-8000-000000000002", at: 5_000)]
        }
        #expect(store.version == 2)
    }

    @Test func aRefusedActionRefusesTheBatch() throws {
        let store = makeStore()
        #expect(throws: TooLarge()) { try store.send(batch: [Increment(by: 2), Increment(by: 9)]) }
        #expect(store.version == 0 && store.state.count == 0, "nothing applied")
    }
}
