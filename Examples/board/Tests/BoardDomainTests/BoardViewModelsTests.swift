import Foundation
import SyncStore
import Testing

@testable import BoardDomain

@Suite struct BoardViewModelsTests {
    @Test func theBoardListsEveryColumnWithItsCards() throws {
        var board = BoardHarness()
        let a = try board.add("a")
        try board.apply(EditCard(card: a, notes: "more"))
        let b = try board.add("b")
        try board.apply(SetColumnLimit(column: "doing", limit: 2))
        try board.apply(MoveCard(card: b, column: "doing"))
        let c = try board.add("c")
        try board.apply(ArchiveCard(card: c))
        let model = BoardViewModel(state: board.state, params: NoParams())
        #expect(
            model
                == BoardViewModel(
                    columns: [
                        ColumnSummary(
                            name: "todo", limit: nil, cards: [CardSummary(id: a, title: "a", hasNotes: true)]),
                        ColumnSummary(
                            name: "doing", limit: 2, cards: [CardSummary(id: b, title: "b", hasNotes: false)]),
                        ColumnSummary(name: "done", limit: nil, cards: []),
                    ], archivedCount: 1))
    }

    @Test func theBoardNamesItsChangesAsReplacedColumns() throws {
        var board = BoardHarness()
        let a = try board.add("a")
        let old = BoardViewModel(state: board.state, params: NoParams())
        try board.apply(MoveCard(card: a, column: "done"))
        let new = BoardViewModel(state: board.state, params: NoParams())
        let paths = new.changes(from: old).map { change -> String in
            switch change {
            case .add(let path, _): return "add /" + path.joined(separator: "/")
            case .remove(let path): return "remove /" + path.joined(separator: "/")
            case .replace(let path, _): return "replace /" + path.joined(separator: "/")
            }
        }
        #expect(paths == ["replace /columns/0", "replace /columns/2"])
        #expect(new.changes(from: new).isEmpty)
    }

    @Test func oneColumnByNameAndNoModelForAnUnknownOne() throws {
        var board = BoardHarness()
        let a = try board.add("a", to: "doing")
        #expect(
            ColumnViewModel(state: board.state, params: .init(column: "doing"))?.column
                == ColumnSummary(name: "doing", limit: nil, cards: [CardSummary(id: a, title: "a", hasNotes: false)]))
        #expect(ColumnViewModel(state: board.state, params: .init(column: "later")) == nil)
        let json = try JSONEncoder().encode(ColumnViewModel(state: board.state, params: .init(column: "todo")))
        #expect(
            String(decoding: json, as: UTF8.self).contains(#""name":"todo""#), "the column is the model, not wrapped")
    }

    @Test func oneCardWithWhereItIsArchivedOrNotAndNoModelForAnUnknownId() throws {
        var board = BoardHarness()
        let a = try board.add("a")
        try board.add("b")
        let b = cardID(2)
        try board.apply(MoveCard(card: a, column: "doing"))
        let card = try #require(CardViewModel(state: board.state, params: .init(card: a)))
        #expect(card.card.title == "a" && card.column == "doing" && card.position == 0)
        try board.apply(ArchiveCard(card: b))
        let archived = try #require(CardViewModel(state: board.state, params: .init(card: b)))
        #expect(archived.card.archived && archived.column == nil && archived.position == nil)
        #expect(CardViewModel(state: board.state, params: .init(card: "nope")) == nil)
    }

    @Test func paramsDecodeFromTheWireAndRejectTheWrongShape() throws {
        let decoder = JSONDecoder()
        #expect(
            try decoder.decode(ColumnViewModel.Params.self, from: Data(#"{"column":"done"}"#.utf8)).column == "done")
        #expect(throws: DecodingError.self) {
            try decoder.decode(CardViewModel.Params.self, from: Data(#"{"card":7}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(MoveCard.self, from: Data(#"{"column":"done"}"#.utf8))
        }
    }

    @Test func everyWireNameIsUniqueAndFound() {
        let actions = BoardApp.actions.map { $0.wireName }
        let views = BoardApp.viewModels.map { $0.wireName }
        #expect(Set(actions).count == actions.count && Set(views).count == views.count)
        #expect(BoardApp.actionType(named: "moveCard") == MoveCard.self)
        #expect(BoardApp.viewModelType(named: "card") == CardViewModel.self)
    }

    @Test func theStateSurvivesASnapshotRoundTrip() throws {
        var board = BoardHarness()
        let a = try board.add("a")
        try board.apply(MoveCard(card: a, column: "done"))
        try board.apply(ArchiveCard(card: a))
        try board.apply(SetColumnLimit(column: "doing", limit: 4))
        let decoded = try JSONDecoder().decode(BoardState.self, from: JSONEncoder().encode(board.state))
        #expect(decoded == board.state)
    }
}
