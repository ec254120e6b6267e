import Testing

@testable import SyncClient

/// The client's connection state machine on its own: every transition, the state it publishes, and
/// the transitions that do not fit the state (which change nothing).
@Suite struct ConnectionStateMachineTests {
    /// A stand-in for the socket: the lifecycle only hands it back.
    private typealias Machine = ConnectionState.Machine<String>

    private let lost = SyncClientError.connectionClosed(.daemonClosed)
    private let unreachable = SyncClientError.daemonUnreachable(path: "/s", reason: "no such socket")
    private let refused = SyncClientError.server(code: "permission_denied", message: "not yours")

    /// A lifecycle serving connection `socket` at version 3.
    private func serving(reconnects: Bool = true, socket: String = "first") -> Machine {
        var lifecycle = Machine(reconnects: reconnects)
        let opened = lifecycle.opened(socket)
        #expect(opened)
        let welcomed = lifecycle.welcomed(version: 3)
        #expect(welcomed == socket)
        return lifecycle
    }

    @Test func theFirstConnectionIsPublishedOnlyOnceWelcomed() {
        var lifecycle = Machine(reconnects: true)
        #expect(lifecycle.published == nil)
        let opened = lifecycle.opened("first")
        #expect(opened)
        #expect(lifecycle.published == nil)
        #expect(lifecycle.servingConnection == nil)
        let welcomed = lifecycle.welcomed(version: 7)
        #expect(welcomed == "first")
        #expect(lifecycle.published == .connected(version: 7))
        #expect(lifecycle.servingConnection == "first")
        #expect(lifecycle.generation == 0)
        #expect(lifecycle.closedReason == nil)
    }

    @Test func aFailedFirstConnectionClosesEvenWhenReconnecting() {
        var lifecycle = Machine(reconnects: true)
        let next = lifecycle.attemptFailed(unreachable)
        #expect(next == nil)
        #expect(lifecycle.closedReason == unreachable)
        #expect(lifecycle.published == .closed(reason: unreachable))
        let opened = lifecycle.opened("late")
        #expect(!opened)
    }

    @Test func aLostConnectionWaitsRetriesAndServesAgain() {
        var lifecycle = serving()
        let next = lifecycle.lost(lost)
        #expect(next == 1)
        #expect(lifecycle.generation == 1)
        #expect(lifecycle.servingConnection == nil)
        #expect(lifecycle.published == .reconnecting(attempt: 1, reason: lost))
        let retried = lifecycle.retry()
        #expect(retried)
        #expect(lifecycle.published == .reconnecting(attempt: 1, reason: lost))
        let next2 = lifecycle.attemptFailed(unreachable)
        #expect(next2 == 2)
        #expect(lifecycle.published == .reconnecting(attempt: 2, reason: unreachable))
        let retried2 = lifecycle.retry()
        #expect(retried2)
        let opened = lifecycle.opened("second")
        #expect(opened)
        let welcomed = lifecycle.welcomed(version: 5)
        #expect(welcomed == "second")
        #expect(lifecycle.published == .connected(version: 5))
        #expect(lifecycle.servingConnection == "second")
        #expect(lifecycle.generation == 1)
    }

    @Test func aLostConnectionClosesWhenThePolicyNeverReconnects() {
        var lifecycle = serving(reconnects: false)
        let next = lifecycle.lost(lost)
        #expect(next == nil)
        #expect(lifecycle.closedReason == lost)
        #expect(lifecycle.generation == 1)
    }

    @Test func theDaemonsLastWordIsWhyItEnded() {
        let bye = SyncClientError.connectionClosed(.daemonSaidBye(reason: "shutting down"))
        var lifecycle = serving()
        lifecycle.daemonReported(refused)
        lifecycle.daemonSpoke()
        lifecycle.daemonReported(bye)
        let next = lifecycle.lost(lost)
        #expect(next == 1)
        #expect(lifecycle.published == .reconnecting(attempt: 1, reason: bye))
        // A refusal the daemon explained its close with is fatal.
        var refusedLifecycle = serving()
        refusedLifecycle.daemonReported(refused)
        let next2 = refusedLifecycle.lost(lost)
        #expect(next2 == nil)
        #expect(refusedLifecycle.closedReason == refused)
    }

    @Test func aFatalAttemptFailureCloses() {
        var lifecycle = serving()
        _ = lifecycle.lost(lost)
        let retried = lifecycle.retry()
        #expect(retried)
        let unsupported = SyncClientError.unsupportedProtocol(serverSupports: [9])
        let next = lifecycle.attemptFailed(unsupported)
        #expect(next == nil)
        #expect(lifecycle.published == .closed(reason: unsupported))
    }

    @Test func givingUpClosesWithTheLastReason() {
        var lifecycle = serving()
        _ = lifecycle.lost(lost)
        lifecycle.giveUp(after: .seconds(2))
        #expect(lifecycle.closedReason == .connectionClosed(.gaveUp(after: .seconds(2), last: lost)))
        let retried = lifecycle.retry()
        #expect(!retried)
    }

    @Test func closingHandsBackTheSocketToShutDown() {
        var connecting = Machine(reconnects: true)
        let opened = connecting.opened("handshaking")
        #expect(opened)
        let closed = connecting.close(.connectionClosed(.closedByClient))
        #expect(closed.changed && closed.connection == "handshaking")
        let welcomed = connecting.welcomed(version: 1)
        #expect(welcomed == nil)

        var lifecycle = serving()
        let first = lifecycle.close(.connectionClosed(.closedByClient))
        #expect(first.changed && first.connection == "first")
        #expect(lifecycle.published == .closed(reason: .connectionClosed(.closedByClient)))
        let second = lifecycle.close(refused)
        #expect(!second.changed && second.connection == nil)
        #expect(lifecycle.closedReason == .connectionClosed(.closedByClient))

        var waiting = serving()
        _ = waiting.lost(lost)
        let fromWaiting = waiting.close(.connectionClosed(.closedByClient))
        #expect(fromWaiting.changed && fromWaiting.connection == nil)
    }

    @Test func closingAfterAnUnexplainedDaemonErrorReportsThatError() {
        var lifecycle = serving()
        lifecycle.daemonReported(refused)
        _ = lifecycle.close(.connectionClosed(.closedByClient))
        #expect(lifecycle.closedReason == refused)
        var other = serving()
        other.daemonReported(refused)
        let violation = SyncClientError.protocolViolation("garbage")
        _ = other.close(violation)
        #expect(other.closedReason == violation)
    }

    /// Transitions that do not fit the state are refused and change nothing.
    @Test func transitionsOutOfPlaceChangeNothing() {
        var lifecycle = serving()
        let opened = lifecycle.opened("stray")
        #expect(!opened)
        let welcomed = lifecycle.welcomed(version: 9)
        #expect(welcomed == nil)
        let next = lifecycle.attemptFailed(unreachable)
        #expect(next == nil)
        let retried = lifecycle.retry()
        #expect(!retried)
        lifecycle.giveUp(after: .seconds(1))
        #expect(lifecycle.published == .connected(version: 3))
        #expect(lifecycle.servingConnection == "first")

        _ = lifecycle.lost(lost)
        let welcomed2 = lifecycle.welcomed(version: 9)
        #expect(welcomed2 == nil)
        let opened2 = lifecycle.opened("before the retry")
        #expect(!opened2)
        let next2 = lifecycle.lost(lost)
        #expect(next2 == nil)
        lifecycle.daemonReported(refused)
        #expect(lifecycle.published == .reconnecting(attempt: 1, reason: lost))
        #expect(lifecycle.generation == 1)
    }
}
