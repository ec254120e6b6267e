import Foundation
import SyncProtocol
import SyncStore
import TestSupport
import Testing

@testable import TodoDomain

/// The daemon makes each version of `list` and `summary` from the previous one; these tests hold
/// that to the models made from scratch, and show that the work follows the change.
@Suite struct IncrementalViewModelTests {
    private struct Views {
        var lists: [ListViewModel]
        var summary: SummaryViewModel

        init(_ state: TodoState) {
            lists = ListFilter.allCases.map { ListViewModel(state: state, params: .init(filter: $0)) }
            summary = SummaryViewModel(state: state, params: NoParams())
        }

        init(_ state: TodoState, previous: Views) {
            lists = zip(ListFilter.allCases, previous.lists).map {
                ListViewModel(state: state, params: .init(filter: $0), previous: $1)
            }
            summary = SummaryViewModel(state: state, params: NoParams(), previous: previous.summary)
        }
    }

    /// A store of `count` items, every third one done.
    private func store(items count: Int) -> Store<TodoState> {
        let items = (1...count).map {
            TodoItem(id: "id-\($0)", number: $0, text: "item \($0)", completed: $0 % 3 == 0, createdAt: Int64($0))
        }
        return Store(state: TodoState(items: items, nextNumber: count + 1))
    }

    private func accepted<A: Action<TodoState>>(_ action: A, _ state: TodoState, _ step: Int) -> A {
        var action = action
        action.accept(AcceptanceContext(identifier: UUID(), millisecondsSinceEpoch: Int64(10_000 + step)), state: state)
        return action
    }

    /// 250 random actions on 700 items (three chunks), some versions holding two actions (as
    /// a group commit does): after each version every filter's list and the summary made from the
    /// previous version equal the ones made from scratch, and their changes
    /// applied to the previous model give the new one.
    @Test(arguments: [11, 12] as [UInt64]) func incrementalModelsEqualModelsMadeFromScratch(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var store = store(items: 700)
        var views = Views(store.state)
        for step in 0..<250 {
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                // Existing items only: a rejected action changes nothing, and Swift Testing
                // records a backtrace for every thrown error, which is slow.
                let items = store.state.items
                let target = items.isEmpty ? 0 : items[Int.random(in: 0..<items.count, using: &random)].number
                let action: any Action<TodoState> =
                    switch Int.random(in: 0..<9, using: &random) {
                    case 0: accepted(AddItem(text: "new \(step)"), store.state, step)
                    case 1, 2: accepted(CompleteItem(number: target), store.state, step)
                    case 3: ReopenItem(number: target)
                    case 4: EditItem(number: target, text: "edited \(step)")
                    case 5, 6: RemoveItem(number: target)
                    case 7 where step % 50 == 0: ClearCompleted()
                    default:
                        store.state.undoStack.isEmpty
                            ? ReopenItem(number: target) : accepted(UndoLast(), store.state, step)
                    }
                try store.apply(action)
            }
            let next = Views(store.state, previous: views)
            let fresh = Views(store.state)
            for (filter, (incremental, scratch)) in zip(ListFilter.allCases, zip(next.lists, fresh.lists)) {
                #expect(incremental == scratch, "step \(step), filter \(filter)")
            }
            #expect(next.summary == fresh.summary, "step \(step)")
            for (old, new) in zip(views.lists, next.lists) {
                var rows = Array(old.items)
                var counts = (open: old.openCount, done: old.doneCount)
                ModelChangeApplier.apply(new.changes(from: old), toArray: "items", &rows) { change in
                    guard case .replace(let path, let value as Int) = change else {
                        Issue.record("unexpected change \(change)")
                        return
                    }
                    if path == ["openCount"] {
                        counts.open = value
                    } else if path == ["doneCount"] {
                        counts.done = value
                    }
                }
                #expect(rows == Array(new.items) && counts == (new.openCount, new.doneCount), "step \(step)")
            }
            views = next
        }
    }

    /// One toggle in a list of 100k items: the new model shares every row chunk but the toggled
    /// one with the last model, and its changes are one row and the two counts.
    @Test func aToggleInALongListRebuildsOneChunkOfRows() throws {
        var store = store(items: 100_000)
        let before = ListViewModel(state: store.state, params: .init())
        try store.apply(accepted(CompleteItem(number: 50_000), store.state, 1))
        let after = ListViewModel(state: store.state, params: .init(), previous: before)
        let oldChunks = Set(before.items.chunks.map(ObjectIdentifier.init))
        #expect(after.items.chunks.count { !oldChunks.contains(ObjectIdentifier($0)) } == 1)
        let changes = after.changes(from: before)
        #expect(changes.count == 3)
        guard case .replace(let path, _) = changes.first else {
            Issue.record("expected the row to be replaced, got \(changes)")
            return
        }
        #expect(path == ["items", "49999"])
        #expect(after.doneCount == before.doneCount + 1)
    }

    @Test func aPreviousModelWithAnotherFilterIsNotReused() throws {
        var store = store(items: 600)
        let all = ListViewModel(state: store.state, params: .init(filter: .all))
        try store.apply(accepted(CompleteItem(number: 1), store.state, 1))
        for filter in [ListFilter.open, .done] {
            let next = ListViewModel(state: store.state, params: .init(filter: filter), previous: all)
            #expect(next == ListViewModel(state: store.state, params: .init(filter: filter)), "filter \(filter)")
        }
    }

    @Test func aModelDecodedFromTheWireStillMakesTheNextVersion() throws {
        var store = store(items: 600)
        let decoded = try WireJSON.decode(
            ListViewModel.self, from: WireJSON.encode(ListViewModel(state: store.state, params: .init())))
        try store.apply(RemoveItem(number: 300))
        let next = ListViewModel(state: store.state, params: .init(), previous: decoded)
        #expect(next == ListViewModel(state: store.state, params: .init()))
    }
}
