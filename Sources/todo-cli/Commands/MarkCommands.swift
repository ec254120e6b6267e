import CommandLineKit
import SyncClient
import SyncCommandLine
import SyncStore
import TodoDomain

extension Command {
    /// `todo done N...`
    static let done = Command(
        name: "done", arguments: "N...", summary: "Mark items N... as done.", details: "",
        run: { context, arguments throws(CLIError) in
            try await dispatchEach(
                Arguments.numbers(arguments, command: "done"), context: context, CompleteItem.init(number:))
        })

    /// `todo reopen N...`
    static let reopen = Command(
        name: "reopen", arguments: "N...", summary: "Mark items N... as open again.", details: "",
        run: { context, arguments throws(CLIError) in
            try await dispatchEach(
                Arguments.numbers(arguments, command: "reopen"), context: context, ReopenItem.init(number:))
        })

    /// `todo rm N...`
    static let remove = Command(
        name: "rm", arguments: "N...", summary: "Remove items N... (their numbers are never reused).", details: "",
        run: { context, arguments throws(CLIError) in
            try await dispatchEach(
                Arguments.numbers(arguments, command: "rm"), context: context, { RemoveItem(number: $0) })
        })

    /// Dispatches one action per number, in order, on one connection: each number is its own
    /// change. Every number is tried; each refusal is reported on its own line, and the command
    /// fails if any was refused.
    private static func dispatchEach<A: Action>(
        _ numbers: [Int], context: Invocation, _ makeAction: @escaping @Sendable (Int) -> A
    ) async throws(CLIError) {
        let failures = try await context.withClient(TodoApp.self) { client throws(SyncClientError) in
            var failures: [String] = []
            for number in numbers {
                do throws(SyncClientError) {
                    _ = try await client.dispatch(makeAction(number))
                } catch  where error.code != nil {
                    failures.append(error.description)
                }
            }
            return failures
        }
        guard let last = failures.last else { return }
        for failure in failures.dropLast() { Output.error(failure) }
        throw .rejected(last)
    }
}
