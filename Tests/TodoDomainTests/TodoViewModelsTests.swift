import Foundation
import SyncStore
import Testing

@testable import TodoDomain

@Suite struct TodoViewModelsTests {
    private let state = TodoState(
        items: [
            TodoItem(id: "a", number: 1, text: "one", completed: true, createdAt: 10, completedAt: 20),
            TodoItem(id: "b", number: 3, text: "three", completed: false, createdAt: 30),
            TodoItem(id: "c", number: 4, text: "four", completed: false, createdAt: 40),
        ], nextNumber: 5)

    @Test func listFiltersInCreationOrderAndCountsEverything() {
        let all = ListViewModel(state: state, params: .init(filter: .all))
        #expect(all.items.map(\.number) == [1, 3, 4])
        #expect(all.openCount == 2 && all.doneCount == 1)
        #expect(ListViewModel(state: state, params: .init(filter: .open)).items.map(\.number) == [3, 4])
        let done = ListViewModel(state: state, params: .init(filter: .done))
        #expect(done.items == [.init(number: 1, text: "one", completed: true)])
        #expect(done.openCount == 2 && done.doneCount == 1)
    }

    @Test func listParamsDefaultToAllAndRejectUnknownFilters() throws {
        #expect(try JSONDecoder().decode(ListViewModel.Params.self, from: Data("{}".utf8)).filter == .all)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ListViewModel.Params.self, from: Data(#"{"filter":"later"}"#.utf8))
        }
    }

    @Test func itemIsTheItemOrNothing() throws {
        #expect(ItemViewModel(state: state, params: .init(number: 3))?.item.text == "three")
        #expect(ItemViewModel(state: state, params: .init(number: 2)) == nil)
        let json = String(
            decoding: try JSONEncoder().encode(ItemViewModel(state: state, params: .init(number: 1))), as: UTF8.self)
        #expect(
            json.contains(#""number":1"#) && json.contains(#""id":"a""#), "the item model is the item itself: \(json)")
    }

    @Test func summaryCounts() {
        let summary = SummaryViewModel(state: state, params: NoParams())
        #expect(summary.totalCount == 3 && summary.openCount == 2 && summary.doneCount == 1)
    }
}
