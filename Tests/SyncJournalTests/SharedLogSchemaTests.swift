import SyncJournal
import Testing

@Suite struct SharedLogSchemaTests {
    @Test func todosNamesAndLockKeysAreThoseOfEarlierReleases() {
        let schema = SharedLogSchema(daemonName: "todod")
        #expect(schema.prefix == "todod")
        #expect(schema.leaderLockKey == 0x746f_646f_6402)
    }

    @Test func twoAppsShareNoNameAndNoLock() {
        let names = ["todod", "boardd", "tea-timerd", "a", "tea-timere"]
        let schemas = names.map { SharedLogSchema(daemonName: $0) }
        #expect(Set(schemas.map(\.prefix)).count == names.count)
        #expect(Set(schemas.map(\.leaderLockKey)).count == names.count)
        #expect(SharedLogSchema(daemonName: "tea-timerd").prefix == "tea_timerd")
        #expect(schemas.allSatisfy { $0.leaderLockKey > 0 })
    }
}
