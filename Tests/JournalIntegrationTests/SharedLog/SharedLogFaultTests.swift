import Foundation
import Glibc
import ProcessSpawn
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// What a team's laptops do to the shared log (one suspends, one drops off the network, the
/// database restarts, everyone writes at once): no healthy host waits on another, every
/// dispatch is answered within a bound, and writes come back within a second. The bounds are
/// the ones docs/SCALE_OUT.md states; the tests assert them in the plain build only (see
/// `TestEnvironment.assertsTimeBounds`), and every test checks the log afterwards: each acked
/// action once, at the version acked, the same list on every host.
@Suite(
    .blocking(.long), .serialized,
    .enabled(if: PrivatePostgres.isAvailable, Comment(rawValue: PrivatePostgres.skipReason)),
    .enabled(if: TestEnvironment.assertsTimeBounds, Comment(rawValue: TestEnvironment.timeBoundsSkipReason)))
struct SharedLogFaultTests {
    /// A suspended laptop is a SIGSTOP: its sessions stay open and answer nothing. The calm
    /// window the healthy hosts' gaps are compared with is as long as the stop (the window
    /// watched is the stop and the catching up after it): on a busy machine the longest gap
    /// grows with the time watched (in a CI run at a load of 10 on 2 cores, writers that went
    /// 1.0 s without an ack in 5 calm seconds went 7.4 s in the 20 seconds of the stop and the
    /// catching up, with no error answered). A stall the stop causes would begin at SIGSTOP and
    /// last until SIGCONT: the summary says where each host's longest gap began.
    @Test func aStoppedHostStallsNoHealthyHostAndWritesWithinASecondOfResuming() throws {
        let cluster = try SharedLogCluster(daemons: 3)
        defer { cluster.close() }
        try Self.fill(cluster, versions: 20_000)
        let writers = SharedLogFailureTests.writers(
            on: cluster, perDaemon: 2, prefix: "stopped", pause: Self.steadyPause)
        defer { for writer in writers { writer.cancel() } }
        for writer in writers { try writer.waitForAcks(atLeast: 5) }
        let stop: UInt32 = 10_000_000
        let calm = NumberedWriter.now()
        usleep(stop)

        let stopped = cluster.daemons[2]
        let frozen = NumberedWriter.now()
        stopped.process.send(SIGSTOP)
        usleep(stop)
        let resumed = NumberedWriter.now()
        stopped.process.send(SIGCONT)
        for writer in writers { try writer.waitForAcks(atLeast: writer.ackCount + 5) }
        let ended = NumberedWriter.now()
        let summaries = try writers.map { try $0.stop() }

        let before = summaries.map { $0.longestAckGap(from: calm, to: frozen) }.max() ?? 0
        for summary in summaries.prefix(4) {
            let gap = summary.longestAckGapSpan(from: frozen, to: ended)
            #expect(
                gap.length < Self.bound(1, before: before),
                "\(summary.clientID) went \(gap.length) s without an ack while another host was stopped (\(before) s before), from \(gap.begin - frozen) s after SIGSTOP (SIGCONT at \(resumed - frozen) s), with \(summary.storageErrors) storage_unavailable answers; load factor \(TestEnvironment.loadFactor); the daemons' logs:\n\(cluster.logs)"
            )
        }
        for summary in summaries.suffix(2) {
            let first = try #require(summary.firstAck(after: resumed))
            #expect(
                first - resumed < Self.bound(1, before: before),
                "\(summary.clientID): first ack \(first - resumed) s after SIGCONT")
        }
        print(
            "SharedLogFaultTests: SIGSTOP: longest ack gaps on the healthy hosts \(summaries.prefix(4).map { Self.ms($0.longestAckGap(from: frozen, to: ended)) }) ms (before the fault \(Self.ms(before)) ms); first acks after SIGCONT \(summaries.suffix(2).map { Self.ms(($0.firstAck(after: resumed) ?? 0) - resumed) }) ms; those gaps began at \(summaries.prefix(4).map { Self.ms($0.longestAckGapSpan(from: frozen, to: ended).begin - frozen) }) ms after SIGSTOP (SIGCONT at \(Self.ms(resumed - frozen)) ms); storage_unavailable resent \(summaries.map(\.storageErrors))"
        )
        try SharedLogFailureTests.expectLogMatches(summaries, cluster: cluster, alsoAdded: Self.filled(20_000))
    }

    /// A host cut off from the database (its link down: silent, both ways) while the others
    /// write. As in the SIGSTOP test, the calm window the others' gaps are compared with is as
    /// long as the cut.
    @Test(.enabled(if: SimulatedHosts.unavailableReason == nil, "\(SimulatedHosts.unavailableReason ?? "")"))
    func aHostCutOffSlowsNoOtherIsAnsweredWithinThreeSecondsAndWritesWithinASecondOfTheHeal() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hosts = try SimulatedHosts(count: 3, tag: "tt\(getpid() % 100_000)", directory: directory)
        defer { hosts.tearDown() }
        let addresses = hosts.hosts.map(\.databaseAddress)
        let cluster = try SharedLogCluster(
            daemons: 0, postgresSettings: ["listen_addresses": addresses.joined(separator: ",")],
            trustedNetwork: hosts.network)
        defer { cluster.close() }
        for index in 0..<3 {
            try cluster.addDaemon(
                conninfo: cluster.postgres.conninfo(address: addresses[index]), launcher: hosts.launcher(host: index))
        }
        let writers = SharedLogFailureTests.writers(on: cluster, perDaemon: 1, prefix: "cut", pause: Self.steadyPause)
        defer { for writer in writers { writer.cancel() } }
        for writer in writers { try writer.waitForAcks(atLeast: 5) }
        let outage: UInt32 = 8_000_000
        let calm = NumberedWriter.now()
        usleep(outage)

        let cut = NumberedWriter.now()
        try hosts.cut(host: 2)
        usleep(outage)
        let healed = NumberedWriter.now()
        try hosts.heal(host: 2)
        for writer in writers { try writer.waitForAcks(atLeast: writer.ackCount + 5) }
        let ended = NumberedWriter.now()
        let summaries = try writers.map { try $0.stop() }

        let before = summaries.map { $0.longestAckGap(from: calm, to: cut) }.max() ?? 0
        for summary in summaries.prefix(2) {
            let gap = summary.longestAckGapSpan(from: cut, to: ended)
            #expect(
                gap.length < Self.bound(1, before: before),
                "\(summary.clientID) went \(gap.length) s without an ack while another host was cut off (\(before) s before), from \(gap.begin - cut) s after the cut (healed at \(healed - cut) s), with \(summary.storageErrors) storage_unavailable answers; load factor \(TestEnvironment.loadFactor); the daemons' logs:\n\(cluster.logs)"
            )
        }
        let cutOff = summaries[2]
        #expect(cutOff.storageErrors > 0, "the cut-off host refused changes")
        let wait = cutOff.longestWait(from: cut, to: healed)
        #expect(wait <= Self.bound(3, before: before), "a dispatch on the cut-off host waited \(wait) s for its answer")
        let first = try #require(cutOff.firstAck(after: healed))
        #expect(first - healed < Self.bound(1, before: before), "first ack \(first - healed) s after the heal")
        print(
            "SharedLogFaultTests: cut: longest ack gaps on the others \(summaries.prefix(2).map { Self.ms($0.longestAckGap(from: cut, to: ended)) }) ms (before the fault \(Self.ms(before)) ms); longest wait on the cut host \(Self.ms(wait)) ms; first ack \(Self.ms(first - healed)) ms after the heal"
        )
        try SharedLogFailureTests.expectLogMatches(summaries, cluster: cluster)
    }

    /// Fairness: three hosts writing flat out, each with two writers; a host that loses the
    /// race still gets its turn: no writer waits much longer than the others (five times, or
    /// 1 s times the machine's load factor), none starves.
    @Test func noWriterWaitsMuchLongerThanAnotherWhileEveryHostWritesFlatOut() throws {
        let cluster = try SharedLogCluster(daemons: 3)
        defer { cluster.close() }
        let writers = SharedLogFailureTests.writers(on: cluster, perDaemon: 2, prefix: "flat")
        defer { for writer in writers { writer.cancel() } }
        let started = NumberedWriter.now()
        usleep(10_000_000)
        let ended = NumberedWriter.now()
        let summaries = try writers.map { try $0.stop() }

        // Fair: no writer is kept waiting much longer than the luckiest one, nor starved of
        // acks (the absolute worst wait under load is figure 10's, in the benchmark). The floor
        // grows with the load, as the other bounds here do: in a CI run beside a sanitizer
        // build one host's writers waited 1.32 s while the luckiest waited 0.18 s.
        let luckiest = summaries.map { $0.longestWait(from: started, to: ended) }.min() ?? 0
        let floor = TestEnvironment.loadFactor
        let most = summaries.map(\.acks.count).max() ?? 0
        for summary in summaries {
            let wait = summary.longestWait(from: started, to: ended)
            #expect(
                wait < max(floor, 5 * luckiest),
                "\(summary.clientID) waited \(wait) s for an answer (the luckiest \(luckiest) s)")
            #expect(
                summary.acks.count * 4 >= most,
                "\(summary.clientID) made progress: \(summary.acks.count) acks of \(most)")
        }
        print(
            "SharedLogFaultTests: flat out, acks per writer \(summaries.map(\.acks.count)), worst waits \(summaries.map { ($0.longestWait(from: started, to: ended) * 1000).rounded() }) ms"
        )
        try SharedLogFailureTests.expectLogMatches(summaries, cluster: cluster)
    }

    /// The pause (microseconds) of the steady writers around a fault, after each ack: at most
    /// 20 dispatches a second each, busier than a team's shells. What the others wrote meanwhile is
    /// what a host back from a fault catches up on before it writes, and that work, unlike a
    /// stall, grows with the machine's load: in a CI run at a load of 10 on 2 cores, a host
    /// catching up 10 s of writers pausing 10 ms took 5.8 s to write again (0.4–0.6 s here
    /// when idle), reading and rebasing on a few thousand entries in the debug build.
    static var steadyPause: UInt32 { 50_000 }

    /// The bound a fault's effect is held to: `seconds` (docs/SCALE_OUT.md), on a busy machine
    /// that many times `TestEnvironment.loadFactor` (the work after a fault, such as catching
    /// up what the others wrote meanwhile, takes that much longer), or, if the same writers
    /// already waited `before` seconds without an ack before the fault, three times that. A
    /// stall the fault causes lasts as long as the fault (seconds, whatever the load).
    static func bound(_ seconds: Double, before: Double) -> Double {
        max(seconds * TestEnvironment.loadFactor, 3 * before)
    }

    /// `seconds` in whole milliseconds, for the printed summaries.
    static func ms(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }

    /// The texts `fill` added, in order.
    static func filled(_ count: Int) -> [String] { (1...count).map { "filler \($0)" } }

    /// Adds `filled(versions)` through daemon 0, pipelined, and waits until every daemon has them.
    static func fill(_ cluster: SharedLogCluster, versions: Int) throws {
        let client = try cluster.daemons[0].greetedClient()
        var next = 1
        while next <= versions {
            let batch = (next..<min(next + 1_000, versions + 1)).map { n -> [String: Any] in
                WireClient.dispatchMessage(id: client.makeID(), "add", ["text": "filler \(n)"])
            }
            let replies = try client.pipeline(batch)
            guard replies.values.allSatisfy({ $0.type == "ack" }) else { throw TestFailure("filling: \(replies)") }
            next += batch.count
        }
        for daemon in cluster.daemons {
            try eventually(timeout: 120, "a daemon did not reach version \(versions)") {
                let welcome = try WireClient(path: daemon.socketPath).hello()
                return (welcome["version"] as? Int ?? 0) >= versions ? true : nil
            }
        }
    }
}
