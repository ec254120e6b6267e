extension ConnectionState {
    /// Where a client's connection to the daemon stands, as one value, and every way it moves on:
    /// the machine whose states `ConnectionState` publishes.
    ///
    /// The connection thread, `close()` and the reply router change it only through the
    /// transitions below, and each returns what its caller does next; nothing here does I/O, so
    /// it is tested on its own. `Connection` is the socket (`UnixSocket`; anything in tests).
    ///
    /// ```
    ///   start ──▶ connecting(0) ──welcome──▶ serving ◀──welcome── connecting(n) ◀─┐
    ///               │ failed                  │ lost                  │ failed    │ retry
    ///               ▼                         ▼ recoverable           ▼ recoverable│
    ///           closed(reason)           waiting(1) ──────────────▶ waiting(n + 1) ┘
    ///               ▲                         │ fatal, or the policy never reconnects
    ///               └──── close(), give up ───┘ (from any state)
    /// ```
    ///
    /// The first connection is never made again: `SyncClient.connect` reports its failure.
    struct Machine<Connection> {
        /// One state of the connection.
        enum State {
            /// Making connection attempt `attempt` (0: the first) after `after`; `connection` once
            /// the socket is open, while the handshake runs.
            case connecting(attempt: Int, after: SyncClientError?, connection: Connection?)
            /// Handshaken; requests go to `connection`. `daemonError` is the last error the daemon
            /// sent that no request was waiting for: why it is about to close, usually.
            case serving(Connection, version: UInt64, daemonError: SyncClientError?)
            /// Lost for `after`; attempt `attempt` is due once the backoff has passed.
            case waiting(attempt: Int, after: SyncClientError)
            /// Ended for good, for `reason`.
            case closed(SyncClientError)
        }

        /// Whether a lost connection is made again (`ReconnectPolicy.reconnects`).
        let reconnects: Bool
        /// The state now.
        private(set) var state: State = .connecting(attempt: 0, after: nil, connection: nil)
        /// How many handshaken connections have ended: a subscription id means something only on
        /// the connection of its generation.
        private(set) var generation = 0

        /// A machine at its start, reconnecting lost connections if `reconnects`.
        init(reconnects: Bool) {
            self.reconnects = reconnects
        }

        /// Why the connection is closed for good, or `nil` while it is not.
        var closedReason: SyncClientError? {
            if case .closed(let reason) = state { return reason }
            return nil
        }

        /// The handshaken connection requests are written to, or `nil` while there is none.
        var servingConnection: Connection? {
            if case .serving(let connection, _, _) = state { return connection }
            return nil
        }

        /// The state as `SyncClient` publishes it; `nil` before the first handshake completed.
        var published: ConnectionState? {
            switch state {
            case .connecting(_, nil, _): return nil
            case .connecting(let attempt, let reason?, _): return .reconnecting(attempt: attempt, reason: reason)
            case .waiting(let attempt, let reason): return .reconnecting(attempt: attempt, reason: reason)
            case .serving(_, let version, _): return .connected(version: version)
            case .closed(let reason): return .closed(reason: reason)
            }
        }

        /// The socket of the attempt under way is open. `false` when closed meanwhile: the caller
        /// shuts it down.
        mutating func opened(_ connection: Connection) -> Bool {
            guard case .connecting(let attempt, let reason, nil) = state else { return false }
            state = .connecting(attempt: attempt, after: reason, connection: connection)
            return true
        }

        /// The daemon welcomed the attempt under way at `version`. Returns its connection, to send
        /// the backlog on, or `nil` when closed meanwhile.
        mutating func welcomed(version: UInt64) -> Connection? {
            guard case .connecting(_, _, let connection?) = state else { return nil }
            state = .serving(connection, version: version, daemonError: nil)
            return connection
        }

        /// The attempt under way failed with `error`. Returns the next attempt to wait for, or
        /// `nil` once closed (the first connection, a fatal error, or closed meanwhile).
        mutating func attemptFailed(_ error: SyncClientError) -> Int? {
            guard case .connecting(let attempt, _, _) = state else { return nil }
            guard attempt > 0, Self.isRecoverable(error) else {
                state = .closed(error)
                return nil
            }
            state = .waiting(attempt: attempt + 1, after: error)
            return attempt + 1
        }

        /// The daemon sent an error no request waits for; it explains the end of the connection
        /// if nothing follows it.
        mutating func daemonReported(_ error: SyncClientError) {
            guard case .serving(let connection, let version, _) = state else { return }
            state = .serving(connection, version: version, daemonError: error)
        }

        /// The daemon sent anything else: a pending unexplained error explains nothing any more.
        mutating func daemonSpoke() {
            guard case .serving(let connection, let version, .some) = state else { return }
            state = .serving(connection, version: version, daemonError: nil)
        }

        /// The handshaken connection ended with `error` (or the daemon's last error, if it sent
        /// one). Returns the attempt to wait for, or `nil` once closed.
        mutating func lost(_ error: SyncClientError) -> Int? {
            guard case .serving(_, _, let daemonError) = state else { return nil }
            generation += 1
            let reason = daemonError ?? error
            guard reconnects, Self.isRecoverable(reason) else {
                state = .closed(reason)
                return nil
            }
            state = .waiting(attempt: 1, after: reason)
            return 1
        }

        /// The backoff before the due attempt passed: it starts. `false` once closed.
        mutating func retry() -> Bool {
            guard case .waiting(let attempt, let reason) = state else { return false }
            state = .connecting(attempt: attempt, after: reason, connection: nil)
            return true
        }

        /// The policy's time ran out after `limit` while waiting: closed with the last reason.
        mutating func giveUp(after limit: Duration) {
            guard case .waiting(_, let reason) = state else { return }
            state = .closed(.connectionClosed(.gaveUp(after: limit, last: reason)))
        }

        /// Closes for good with `reason`, or with the daemon's last unexplained error when
        /// `reason` is only that the connection closed. Returns the connection to shut down (the
        /// handshaken one or the one in its handshake); `false` when it was closed already, and
        /// nothing changed.
        mutating func close(_ reason: SyncClientError) -> (changed: Bool, connection: Connection?) {
            switch state {
            case .closed:
                return (false, nil)
            case .serving(let connection, _, let daemonError):
                if case .connectionClosed = reason, let daemonError {
                    state = .closed(daemonError)
                } else {
                    state = .closed(reason)
                }
                return (true, connection)
            case .connecting(_, _, let connection):
                state = .closed(reason)
                return (true, connection)
            case .waiting:
                state = .closed(reason)
                return (true, nil)
            }
        }

        /// A lost connection is worth making again; a refusal (permission, protocol version) or a
        /// daemon that said the client broke a rule is not.
        static func isRecoverable(_ error: SyncClientError) -> Bool {
            switch error {
            case .connectionClosed, .daemonUnreachable: return true
            case .server, .unsupportedProtocol, .wrongApp, .protocolViolation, .daemonNotStarted: return false
            }
        }
    }
}
