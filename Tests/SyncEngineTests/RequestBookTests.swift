import Testing

@testable import SyncEngine

/// The request book on its own: a token answers once, even after its place holds another
/// request; a connection's requests leave with it.
@Suite struct RequestBookTests {
    @Test func aTokenIsTakenOnceEvenWhenItsPlaceHoldsALaterRequest() throws {
        var book = RequestBook()
        let first = book.enter(10, of: 1)
        let taken = try #require(book.take(first))
        #expect(taken.connectionID == 1 && taken.requestID == 10)
        let second = book.enter(11, of: 2)
        #expect(book.take(first) == nil, "the first request was answered already")
        #expect(book.awaitsAnswers(2) && !book.awaitsAnswers(1))
        #expect(book.take(second)?.requestID == 11)
        #expect(book.take(second) == nil)
        #expect(!book.awaitsAnswers(2))
    }

    @Test func aConnectionGoneTakesItsRequestsAndLeavesTheOthers() {
        var book = RequestBook()
        let tokens = (0..<6).map { book.enter(Int64($0), of: $0 % 2) }
        #expect(book.count(of: 0) == 3 && book.count(of: 1) == 3)
        book.drop(0)
        #expect(!book.awaitsAnswers(0))
        for (index, token) in tokens.enumerated() {
            #expect((book.take(token)?.requestID) == (index % 2 == 1 ? Int64(index) : nil))
        }
        #expect(book.count(of: 1) == 0)
        let reused = book.enter(7, of: 3)
        #expect(book.take(reused)?.connectionID == 3, "a freed place serves a new request")
    }
}
