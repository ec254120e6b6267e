/// Waits, letting the main actor's tasks (subscriptions, dispatches, the UI loop) run, until
/// `condition` holds. Gives up after `timeout` seconds: a deadline that only stops a broken
/// test from hanging, never what a test asserts.
@MainActor
public func waitUntil(_ what: @autoclosure () -> String, timeout: Double = 30, _ condition: () throws -> Bool)
    async throws
{
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
    while clock.now < deadline {
        if try condition() { return }
        await Task.yield()
        if try condition() { return }
        try await Task.sleep(for: .milliseconds(2))
    }
    if try condition() { return }
    throw WaitTimeout(description: "never happened within \(timeout) s: \(what())")
}

/// `waitUntil` gave up; the description says on what.
public struct WaitTimeout: Error, CustomStringConvertible {
    /// What never happened.
    public let description: String
}
