import Foundation
import SyncStore
import TestSupport
import Testing

@testable import TodoDomain

private func accept<A: Action<TodoState>>(_ action: A, on store: Store<TodoState>, _ n: Int = 1) -> A {
    var action = action
    action.accept(AcceptanceContext(identifier: UUID(), millisecondsSinceEpoch: Int64(n) * 1000), state: store.state)
    return action
}

@Suite struct UndoTests {
    /// Applies `action` accepted against the current state.
    private func apply<A: Action<TodoState>>(_ action: A, _ store: inout Store<TodoState>, _ n: Int = 1) throws {
        try store.apply(accept(action, on: store, n))
    }

    /// Another change lands between an undo's acceptance and its application (another shell,
    /// or another host first in a shared log): the undo refuses, naming both changes, instead
    /// of undoing the change its user never saw.
    @Test func anUndoOvertakenByANewerChangeIsRejectedNotRetargeted() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "mine"), &store, 1)
        let mine = try #require(store.state.undoStack.last?.change)
        let undo = accept(UndoLast(), on: store)
        #expect(undo.undoing == #"add "mine""# && undo.reverts == mine)
        try apply(AddItem(text: "theirs"), &store, 2)
        let before = store
        #expect(throws: TodoRejection.undoOvertaken(undoing: #"add "mine""#, latest: #"add "theirs""#)) {
            try store.apply(undo)
        }
        #expect(store.state == before.state && store.version == before.version, "a rejected undo changes nothing")
        #expect(
            TodoRejection.undoOvertaken(undoing: #"add "mine""#, latest: #"add "theirs""#).description
                == #"nothing was undone: the undo was for add "mine", but a newer change (add "theirs") landed first"#)
    }

    /// An undo accepted when there was nothing to undo stays refused if a rebase puts another
    /// host's change before it: that change came later than what its client saw.
    @Test func anUndoAcceptedWithNothingToUndoNeverRevertsALaterChange() throws {
        let empty = Store(state: TodoApp.initialState)
        let undo = accept(UndoLast(), on: empty)
        var rebased = empty
        try rebased.apply(accept(AddItem(text: "theirs"), on: rebased, 2))
        #expect(throws: TodoRejection.nothingToUndo) { try rebased.apply(undo) }
        #expect(rebased.state.items.map(\.text) == ["theirs"])
    }

    /// A step recorded before changes had ids is named by its summary: an undo of it refuses
    /// when another step, also without an id, is on top by then.
    @Test func aStepWithoutAnIdIsNamedByWhatItDid() throws {
        let old =
            #"{"items":[],"nextNumber":3,"undoStack":[{"changes":[{"remove":{"number":1}}],"summary":"add \"a\""}]}"#
        var store = Store(state: try JSONDecoder().decode(TodoState.self, from: Data(old.utf8)))
        let undo = accept(UndoLast(), on: store)
        #expect(undo.reverts == nil && undo.undoing == #"add "a""#)
        let newer =
            #"{"items":[],"nextNumber":3,"undoStack":[{"changes":[{"remove":{"number":1}}],"summary":"add \"a\""},{"changes":[{"remove":{"number":2}}],"summary":"add \"b\""}]}"#
        store = Store(state: try JSONDecoder().decode(TodoState.self, from: Data(newer.utf8)))
        #expect(throws: TodoRejection.undoOvertaken(undoing: #"add "a""#, latest: #"add "b""#)) {
            try store.apply(undo)
        }
    }

    /// A rebase (docs/SCALE_OUT.md) applies another host's change first and this host's change
    /// again on top, as accepted: the change keeps its id, so an undo naming it still reverts
    /// exactly it, and the other host's change stays.
    @Test func aChangeAppliedAgainOnANewerStateKeepsItsIdForUndo() throws {
        let base = Store(state: TodoApp.initialState)
        var local = base
        let mine = accept(AddItem(text: "mine"), on: local, 1)
        try local.apply(mine)
        let undo = accept(UndoLast(), on: local)
        var rebased = base
        try rebased.apply(accept(AddItem(text: "theirs"), on: rebased, 2))
        try rebased.apply(mine)
        try rebased.apply(undo)
        #expect(rebased.state.items.map(\.text) == ["theirs"])
    }

    /// A client names the change it saw as the newest (the `undo` view model): its undo reverts
    /// exactly that one, and is refused when another change is the newest by then, even one
    /// accepted on this daemon after the client looked.
    @Test func anUndoNamingWhatItsClientSawRevertsOnlyThat() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "a"), &store, 1)
        let seen = try #require(UndoViewModel(state: store.state, params: NoParams()).next)
        #expect(
            seen == UndoTarget(change: store.state.undoStack.last?.change, summary: #"add "a""#) && seen.change != nil)
        try apply(AddItem(text: "b"), &store, 2)
        let undo = accept(UndoLast(reverting: seen), on: store)
        #expect(undo.reverts == seen.change && undo.undoing == #"add "a""#, "acceptance keeps the client's target")
        #expect(throws: TodoRejection.undoOvertaken(undoing: #"add "a""#, latest: #"add "b""#)) {
            try store.apply(undo)
        }
        let now = try #require(UndoViewModel(state: store.state, params: NoParams()).next)
        try store.apply(accept(UndoLast(reverting: now), on: store))
        #expect(store.state.items.map(\.text) == ["a"])
        #expect(UndoViewModel(state: Store(state: TodoApp.initialState).state, params: NoParams()).next == nil)
    }

    /// Every accepted change gets its own id from its acceptance (52 random bits).
    @Test func everyUndoableActionRecordsTheIdFixedAtAcceptance() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "a"), &store, 1)
        try apply(CompleteItem(number: 1), &store, 2)
        try apply(ReopenItem(number: 1), &store, 3)
        try apply(EditItem(number: 1, text: "b"), &store, 4)
        try apply(CompleteItem(number: 1), &store, 5)
        try apply(ClearCompleted(), &store, 6)
        try apply(
            ImportItems(items: [TodoItem(id: "x", number: 9, text: "x", completed: false, createdAt: 1)]), &store, 7)
        try apply(RemoveItem(number: 9), &store, 8)
        let ids = store.state.undoStack.steps.map(\.change)
        #expect(ids.count == 8 && ids.allSatisfy { $0 != nil } && Set(ids).count == 8, "\(ids)")
        let context = AcceptanceContext(
            identifier: UUID(uuidString: "ffffffff-ffff-4fff-bfff-fedcba987654")!, millisecondsSinceEpoch: 0)
        #expect(context.changeID == 0xf_fedc_ba98_7654)
    }

    /// Journals and snapshots written before undo named its target still replay: an undo
    /// without `reverts` undoes the top step, and steps without ids decode.
    @Test func undosAndStepsFromBeforeChangeIdsStillApply() throws {
        let old =
            #"{"items":[{"completed":false,"createdAt":1000,"id":"00000000-0000-0000-0000-000000000001","number":1,"text":"a"}],"nextNumber":2,"undoStack":[{"changes":[{"remove":{"number":1}}],"summary":"add \"a\""}]}"#
        let state = try JSONDecoder().decode(TodoState.self, from: Data(old.utf8))
        #expect(state.undoStack.last?.change == nil)
        var store = Store(state: state)
        let legacyUndo = try JSONDecoder().decode(UndoLast.self, from: Data(#"{"undoing":"add \"a\""}"#.utf8))
        try store.apply(legacyUndo)
        #expect(store.state.items.isEmpty)
        var fresh = Store(state: state)
        try apply(UndoLast(), &fresh)
        #expect(fresh.state.items.isEmpty, "an undo accepted on a step without an id undoes it")
    }

    @Test func eachUndoRevertsTheNextOlderChangeExactly() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "a"), &store, 1)
        try apply(AddItem(text: "b"), &store, 2)
        let afterAdds = store.state.items
        try apply(CompleteItem(number: 1), &store, 3)
        try apply(EditItem(number: 2, text: "B"), &store, 4)
        let beforeRemove = store.state.items
        try apply(RemoveItem(number: 1), &store, 5)
        try apply(ClearCompleted(), &store, 6)

        try apply(UndoLast(), &store) // undoes the remove (the clear changed nothing)
        #expect(store.state.items == beforeRemove)
        try apply(UndoLast(), &store) // undoes the edit
        try apply(UndoLast(), &store) // undoes the complete
        #expect(store.state.items == afterAdds)
        try apply(UndoLast(), &store)
        try apply(UndoLast(), &store)
        #expect(store.state.items.isEmpty)
        #expect(store.state.nextNumber == 3, "undo never gives a number back")
        #expect(throws: TodoRejection.nothingToUndo) { try apply(UndoLast(), &store) }
    }

    @Test func undoOfAClearRestoresEveryItemInPlace() throws {
        var store = Store(state: TodoApp.initialState)
        for text in ["a", "b", "c", "d"] { try apply(AddItem(text: text), &store) }
        try apply(CompleteItem(number: 1), &store)
        try apply(CompleteItem(number: 3), &store)
        let before = store.state.items
        try apply(ClearCompleted(), &store)
        #expect(store.state.items.map(\.number) == [2, 4])
        try apply(UndoLast(), &store)
        #expect(store.state.items == before)
    }

    @Test func acceptanceNamesWhatWillBeUndone() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "buy milk"), &store)
        #expect(accept(UndoLast(), on: store).undoing == #"add "buy milk""#)
        #expect(accept(UndoLast(), on: Store(state: TodoApp.initialState)).undoing == nil)
    }

    @Test func theStackKeepsOnlyTheNewestSteps() throws {
        var store = Store(state: TodoApp.initialState)
        for n in 0..<(TodoState.undoDepth + 10) { try apply(AddItem(text: "item \(n)"), &store) }
        #expect(store.state.undoStack.count == TodoState.undoDepth)
        #expect(store.state.undoStack.steps.first?.summary == #"add "item 10""#)
    }
}

@Suite struct ImportTests {
    private func item(_ id: String, _ number: Int, _ text: String, createdAt: Int64) -> TodoItem {
        TodoItem(id: id, number: number, text: text, completed: false, createdAt: createdAt)
    }

    @Test func importingTwiceChangesNothingTheSecondTime() throws {
        var store = Store(state: TodoApp.initialState)
        let items = [item("x", 4, "four", createdAt: 40), item("y", 2, "two", createdAt: 20)]
        try store.apply(ImportItems(items: items))
        #expect(store.state.items.map(\.number) == [2, 4])
        #expect(store.state.nextNumber == 5)
        let once = store.state
        try store.apply(ImportItems(items: items))
        #expect(store.state == once)
    }

    /// The one-pass placement puts items exactly where inserting them one by one, each before
    /// the first item created after it, does: with creation times out of order, repeated, and
    /// before, among and after the existing ones.
    @Test(arguments: 0..<40) func importedItemsGoWhereInsertingThemOneByOneWould(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let existing = (0..<Int(random.next() % 40)).map { n in
            item("e\(n)", n + 1, "existing", createdAt: Int64(random.next() % 30))
        }
        let added = (0..<Int(random.next() % 12 + 1)).map { n in
            item("a\(n)", 100 + n, "added", createdAt: Int64(random.next() % 34))
        }
        expectPlacedAsOneByOne(added, among: existing)
    }

    /// The same, for the lists a state usually has: none, sorted by creation (over several
    /// chunks), and every time the same.
    @Test func importedItemsGoWhereInsertingThemOneByOneWouldInUsualLists() {
        let added = [40, 0, 999, 1_500, 40, -1].enumerated().map { n, time in
            item("a\(n)", 5_000 + n, "added", createdAt: Int64(time))
        }
        expectPlacedAsOneByOne(added, among: [])
        expectPlacedAsOneByOne(added, among: (0..<1_000).map { item("e\($0)", $0 + 1, "sorted", createdAt: Int64($0)) })
        expectPlacedAsOneByOne(added, among: (0..<300).map { item("e\($0)", $0 + 1, "same", createdAt: 40) })
    }

    private func expectPlacedAsOneByOne(
        _ added: [TodoItem], among existing: [TodoItem], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var oneByOne = existing
        for item in added {
            oneByOne.insert(item, at: oneByOne.firstIndex { $0.createdAt > item.createdAt } ?? oneByOne.count)
        }
        var placed = ChunkedArray(existing)
        for (item, index) in ImportItems.placed(added, among: placed) { placed.insert(item, at: index) }
        #expect(placed.map(\.id) == oneByOne.map(\.id), sourceLocation: sourceLocation)
    }

    @Test func numbersAlreadyGivenOutAreNotReused() throws {
        var store = Store(state: TodoApp.initialState)
        for text in ["a", "b", "c"] {
            try store.apply(accept(AddItem(text: text), on: store, 100))
        }
        try store.apply(accept(RemoveItem(number: 2), on: store))
        try store.apply(ImportItems(items: [item("z", 2, "imported", createdAt: 50)]))
        #expect(store.state.items.map(\.number) == [4, 1, 3], "imported as 4, placed by creation time")
        #expect(store.state.items.first?.text == "imported")
    }

    @Test func anInvalidItemRejectsTheWholeImport() throws {
        var store = Store(state: TodoApp.initialState)
        let before = store.state
        #expect(throws: TodoRejection.self) {
            try store.apply(
                ImportItems(items: [item("ok", 1, "fine", createdAt: 1), item("bad", 2, "  ", createdAt: 2)]))
        }
        #expect(store.state == before)
        #expect(store.version == 0)
    }

    @Test func undoRemovesWhatAnImportAdded() throws {
        var store = Store(state: TodoApp.initialState)
        try store.apply(ImportItems(items: [item("x", 1, "one", createdAt: 1)]))
        var undo = UndoLast()
        undo.accept(AcceptanceContext.now(), state: store.state)
        try store.apply(undo)
        #expect(store.state.items.isEmpty)
    }
}
