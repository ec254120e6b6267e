import SyncStore
import Testing
import TodoDomain

/// The daemon's lookup of action types by wire name agrees with `SyncApp.actionType(named:)`.
@Suite struct ActionDirectoryTests {
    @Test func findsEveryActionAsTheAppListsIt() {
        let directory = ActionDirectory<TodoState>(TodoApp.actions)
        for type in TodoApp.actions {
            #expect(directory[type.wireName].map(ObjectIdentifier.init) == ObjectIdentifier(type))
            #expect(TodoApp.actionType(named: type.wireName).map(ObjectIdentifier.init) == ObjectIdentifier(type))
        }
        #expect(directory["teleport"] == nil)
        #expect(directory[""] == nil)
    }
}
