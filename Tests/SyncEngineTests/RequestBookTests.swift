import Testing

@testable import SyncEngine

/// The request book on its own: a token answers once, even after its place holds another
/// request; a connection's requests leave with it.
@Suite struct RequestBookTests {
    @Test func aTokenIsTakenOnceEvenWhenItsPlaceHoldsALaterRequest() throws {
        var book = RequestBook()
        let first = book.enter(10, of: 1)
        let firstTaken = book.take(first)
        let taken = try #require(firstTaken)
        #expect(taken.connectionID == 1 && taken.requestID == 10)
        let second = book.enter(11, of: 2)
        let firstAgain = book.take(first)
        #expect(firstAgain == nil, "the first request was answered already")
        #expect(book.awaitsAnswers(2) && !book.awaitsAnswers(1))
        let secondTaken = book.take(second)
        #expect(secondTaken?.requestID == 11)
        let secondAgain = book.take(second)
        #expect(secondAgain == nil)
        #expect(!book.awaitsAnswers(2))
    }

    @Test func aConnectionGoneTakesItsRequestsAndLeavesTheOthers() {
        var book = RequestBook()
        let tokens = (0..<6).map { book.enter(Int64($0), of: $0 % 2) }
        #expect(book.count(of: 0) == 3 && book.count(of: 1) == 3)
        book.drop(0)
        #expect(!book.awaitsAnswers(0))
        // The places of connection 0's requests serve new ones; their old tokens find nothing.
        let reused = (0..<3).map { book.enter(100 + Int64($0), of: 3) }
        for (index, token) in tokens.enumerated() {
            let taken = book.take(token)
            #expect(taken?.requestID == (index % 2 == 1 ? Int64(index) : nil))
        }
        #expect(book.count(of: 1) == 0 && book.count(of: 3) == 3)
        let takenAgain = reused.map { book.take($0)?.requestID }
        #expect(takenAgain == [100, 101, 102])
        #expect(!book.awaitsAnswers(3))
    }
}
