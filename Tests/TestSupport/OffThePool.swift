import Foundation

/// Runs `body` on a thread of its own and suspends the calling task until it returns, for a
/// blocking helper (starting or stopping a daemon, running a command, waiting for a process)
/// called from an async test that runs on Swift's cooperative pool or on the main actor.
///
/// The pool has as many threads as cores (2 on this project's machines) and the main actor one:
/// a test that blocks either while it waits holds back every other test of the process that
/// needs it, for as long as it waits, and on a loaded machine those waits are long. That is
/// how `StoppedDaemonTests` (whose unrelated task needs the pool) and the live-screen tests
/// (whose terminal fronts run on the main actor) failed under load.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}

extension DaemonHarness {
    /// `DaemonHarness(...)` for async tests: starts the daemon without blocking the caller's
    /// thread (see `offThePool`).
    public static func started(
        arguments: [String] = [], socketName: String = "todod.sock", dataDirectory: String? = nil,
        environment: [String: String] = [:], launcher: [String] = []
    ) async throws -> DaemonHarness {
        try await offThePool {
            try DaemonHarness(
                arguments: arguments, socketName: socketName, dataDirectory: dataDirectory, environment: environment,
                launcher: launcher)
        }
    }

    /// `start()` without blocking the caller's thread (see `offThePool`).
    public func start() async throws {
        try await offThePool { try self.start() }
    }

    /// `crash()` without blocking the caller's thread (see `offThePool`).
    public func crash() async throws {
        try await offThePool { try self.crash() }
    }

    /// `stop()` without blocking the caller's thread (see `offThePool`).
    @discardableResult
    public func stop() async throws -> Int32 {
        try await offThePool { try self.stop() }
    }

    /// `waitForStop(timeout:)` without blocking the caller's thread (see `offThePool`).
    @discardableResult
    public func waitForStop(timeout: Double = 30) async throws -> Int32 {
        try await offThePool { try self.waitForStop(timeout: timeout) }
    }

    /// `todo(...)` without blocking the caller's thread (see `offThePool`).
    public func todo(_ arguments: String...) async throws -> CommandResult {
        try await offThePool { try self.run(arguments) }
    }

    /// `run(_:timeout:)` without blocking the caller's thread (see `offThePool`).
    public func run(_ arguments: [String], timeout: Double = 30) async throws -> CommandResult {
        try await offThePool { try self.run(arguments, timeout: timeout) }
    }
}

extension ChildProcess {
    /// `waitForExit(timeout:)` without blocking the caller's thread (see `offThePool`).
    @discardableResult
    public func waitForExit(timeout: Double = 30) async throws -> Int32 {
        try await offThePool { try self.waitForExit(timeout: timeout) }
    }
}
