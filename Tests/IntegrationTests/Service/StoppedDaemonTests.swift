import Foundation
import Glibc
import SyncClient
import SyncStore
import Synchronization
import TestSupport
import Testing
import TodoDomain

@testable import IntegrationTestSupport

/// A daemon that stops reading (stopped with SIGSTOP here; a daemon busy for long, or a full
/// socket buffer, look the same to the client) holds up the requests sent to it, never a
/// thread of the program: Swift's cooperative pool has as many threads as cores (2 on this
/// project's machines), and one write blocked in each would stop every task of the program.
@Suite struct StoppedDaemonTests {
    @Test func dispatchesToAStoppedDaemonLeaveUnrelatedTasksRunning() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "tests/1")
        defer { client.close() }
        // More dispatches than the pool has threads, each an import of about 400 KB: together
        // far more than the socket takes while nobody reads it.
        let count = max(8, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let resumer = try DaemonResumer(pid: daemon.process.pid, deadlineSeconds: 60)
        defer { resumer.resume() }

        let started = StartedCount()
        let dispatches = Task {
            try await withThrowingTaskGroup(of: UInt64.self) { group in
                for index in 0..<count {
                    group.addTask {
                        started.increment()
                        return try await client.dispatch(ImportItems(items: Self.items(group: index)))
                    }
                }
                var versions: [UInt64] = []
                for try await version in group { versions.append(version) }
                return versions.sorted()
            }
        }
        // A task that has nothing to do with the client: once every dispatch is on its way, it
        // takes 100 steps, each a suspension and a wake-up on the pool.
        let unrelated = Task { () -> Bool in
            while started.value < count { try? await Task.sleep(for: .milliseconds(1)) }
            for _ in 0..<100 { try? await Task.sleep(for: .milliseconds(1)) }
            return !resumer.hasResumed
        }
        let ranWhileStopped = await unrelated.value
        #expect(
            ranWhileStopped,
            "the unrelated task made no progress until the daemon was resumed after \(resumer.deadlineSeconds) s")

        resumer.resume()
        #expect(
            try await dispatches.value == Array(1...UInt64(count)),
            "each dispatch applied once, once the daemon reads again")
        let list = try await client.get(SummaryViewModel.self, params: NoParams())
        #expect(list.model?.totalCount == count * Self.itemsPerDispatch)
        #expect(try await daemon.stop() == 0)
    }

    static let itemsPerDispatch = 400

    /// The items of dispatch `group`: each with a text of 900 characters, numbered apart from
    /// the other groups'.
    private static func items(group: Int) -> [TodoItem] {
        let text = String(repeating: "x", count: 900)
        return (0..<itemsPerDispatch).map { index in
            let number = group * itemsPerDispatch + index + 1
            return TodoItem(
                id: "stopped-\(number)", number: number, text: text, completed: false, createdAt: Int64(number))
        }
    }
}

/// How many dispatches have started, shared between tasks.
private final class StartedCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
    func increment() { count.add(1, ordering: .sequentiallyConsistent) }
}

/// Stops a daemon with SIGSTOP and resumes it with SIGCONT once asked, or after a deadline
/// from a thread of its own (not Swift's cooperative pool, which the test is about), so that a
/// failure cannot leave the daemon stopped and the suite hanging.
private final class DaemonResumer: Sendable {
    let deadlineSeconds: Int
    private let pid: pid_t
    private let resumed = Atomic<Bool>(false)

    init(pid: pid_t, deadlineSeconds: Int) throws {
        self.pid = pid
        self.deadlineSeconds = deadlineSeconds
        guard kill(pid, SIGSTOP) == 0 else {
            throw TestFailure("cannot stop todod (pid \(pid)): \(String(cString: strerror(errno)))")
        }
        let deadline = ContinuousClock.now + .seconds(deadlineSeconds)
        Thread.detachNewThread { [self] in
            while !hasResumed, ContinuousClock.now < deadline { usleep(10_000) }
            resume()
        }
    }

    /// Whether the daemon was resumed (by `resume()` or the deadline).
    var hasResumed: Bool { resumed.load(ordering: .sequentiallyConsistent) }

    /// Resumes the daemon, once.
    func resume() {
        if !resumed.exchange(true, ordering: .sequentiallyConsistent) { kill(pid, SIGCONT) }
    }
}
