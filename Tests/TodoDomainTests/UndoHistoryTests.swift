import Foundation
import TestSupport
import Testing

@testable import TodoDomain

/// `UndoHistory` held to the array it replaced: the newest `undoDepth` steps, oldest first,
/// whatever mix of pushes and pops, and earlier copies unchanged by later ones.
@Suite struct UndoHistoryTests {
    private func step(_ n: Int) -> UndoStep {
        UndoStep(summary: "step \(n)", changes: [.remove(number: n)])
    }

    @Test(arguments: 0..<6) func randomPushesAndPopsMatchABoundedArray(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var history: UndoHistory = []
        var array: [UndoStep] = []
        var copies: [(UndoHistory, [UndoStep])] = []
        for n in 0..<(5 * TodoState.undoDepth) {
            if Int.random(in: 0..<10, using: &random) < 3 {
                #expect(history.popLast() == array.popLast())
            } else {
                history.push(step(n))
                array.append(step(n))
                if array.count > TodoState.undoDepth { array.removeFirst() }
            }
            #expect(history.count == array.count)
            #expect(history.last == array.last)
            if n % 37 == 0 { copies.append((history, array)) }
        }
        #expect(history.steps == array)
        #expect(history == UndoHistory(array))
        for (copy, steps) in copies {
            #expect(copy.steps == steps, "a copy taken earlier is not changed by later pushes and pops")
        }
    }

    @Test func popsEmptyTheHistoryAndThenFindNothing() {
        var history = UndoHistory((0..<3).map(step))
        #expect(history.popLast() == step(2))
        #expect(history.popLast() == step(1))
        #expect(history.popLast() == step(0))
        #expect(history.isEmpty)
        #expect(history.popLast() == nil)
        #expect(history.last == nil)
    }

    @Test func aForgottenStepStaysForgottenAfterPops() {
        var history = UndoHistory((0..<(TodoState.undoDepth + 1)).map(step))
        for _ in 0..<TodoState.undoDepth { _ = history.popLast() }
        #expect(history.isEmpty, "step 0 was pushed out and does not come back")
    }

    @Test func historiesWithTheSameStepsAreEqualAndOthersAreNot() {
        let steps = (0..<10).map(step)
        #expect(UndoHistory(steps) == UndoHistory(steps))
        #expect(UndoHistory(steps) != UndoHistory(steps.dropLast()))
        #expect(UndoHistory(steps) != UndoHistory(steps.dropFirst() + [step(0)]))
    }

    @Test func encodesAsTheArrayOfItsStepsOldestFirst() throws {
        let steps = (0..<(TodoState.undoDepth + 5)).map(step)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(UndoHistory(steps))
        #expect(encoded == (try encoder.encode(Array(steps.suffix(TodoState.undoDepth)))))
        #expect(try JSONDecoder().decode(UndoHistory.self, from: encoded) == UndoHistory(steps))
    }
}
