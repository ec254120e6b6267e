import Glibc
import SyncProtocol

/// The one thread of a client: connects, says hello, reads frames and hands them to the
/// router; when the connection is lost and the policy allows, waits, connects again, has the
/// backlog resent and goes on reading. Which of these comes next is the router's
/// `ConnectionState.Machine`'s to say; this thread does the I/O and the waiting in between.
///
/// ```
///  connect+hello ──▶ read frames ──▶ connection lost ──▶ wait (backoff) ──▶ connect+hello ─┐
///        │                ▲                 │ fatal, closed or given up                  │
///        ▼ failed         └─────────────────┼──────────── resend backlog ◀───────────────┘
///   connect() throws                        ▼
///                                 fail everything, .closed
/// ```
final class ConnectionThread: Sendable {
    /// Who to connect to and as whom.
    struct Configuration: Sendable {
        let socketPath: String
        let clientName: String
        /// The client's app, named in `hello` (`nil`: not named, as older clients do).
        let app: String?
        let clientID: String
        let policy: ReconnectPolicy
    }

    /// Largest frame accepted from the daemon: models can be large, and the daemon is trusted.
    static let maximumFrameLength = 256 << 20
    /// How long a new connection may take to answer `hello`.
    static let handshakeTimeoutSeconds = 10

    private let configuration: Configuration
    private let router: ReplyRouter
    private let sender: RequestSender
    /// The tasks that prefer to run on this thread (`SyncClient.executor`).
    let jobs: ConnectionExecutor

    init(
        configuration: Configuration, router: ReplyRouter, sender: RequestSender, jobs: ConnectionExecutor
    ) {
        self.configuration = configuration
        self.router = router
        self.sender = sender
        self.jobs = jobs
    }

    /// Starts the thread (detached: it ends when the client closes). `firstConnection` hears
    /// the first handshake's outcome; after a failure there the thread ends.
    func start(firstConnection: @escaping @Sendable (Result<ServerReply.Welcome, SyncClientError>) -> Void) {
        final class Context {
            let thread: ConnectionThread
            let firstConnection: @Sendable (Result<ServerReply.Welcome, SyncClientError>) -> Void
            init(
                _ thread: ConnectionThread,
                _ firstConnection: @escaping @Sendable (Result<ServerReply.Welcome, SyncClientError>) -> Void
            ) {
                self.thread = thread
                self.firstConnection = firstConnection
            }
        }
        // Retained for the thread, released by it.
        let context = Unmanaged.passRetained(Context(self, firstConnection)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
                context.thread.run(firstConnection: context.firstConnection)
                return nil
            }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Context>.fromOpaque(context).release()
            let error = SyncClientError.connectionClosed(.threadNotStarted)
            jobs.end()
            _ = router.attemptFailed(error)
            firstConnection(.failure(error))
        }
    }

    private func run(firstConnection: @Sendable (Result<ServerReply.Welcome, SyncClientError>) -> Void) {
        jobs.begin()
        defer { jobs.end() }
        var connection: (frames: FrameStream, welcome: ServerReply.Welcome)
        do {
            connection = try connectAndGreet()
        } catch {
            _ = router.attemptFailed(error)
            firstConnection(.failure(error))
            return
        }
        sender.resend(on: connection.frames.socket, version: connection.welcome.version)
        firstConnection(.success(connection.welcome))
        while true {
            let lost = readUntilEnd(connection.frames)
            connection.frames.socket.shutDown()
            guard let attempt = router.connectionDidEnd(lost), let next = reconnect(from: attempt) else { return }
            connection = next
            // Queued at once; a large backlog is sent by this thread while it reads the replies.
            sender.resend(on: next.frames.socket, version: next.welcome.version)
        }
    }

    /// Connects again with backoff from attempt `attempt`, or returns `nil` once closed, given
    /// up or refused for good.
    private func reconnect(from attempt: Int) -> (frames: FrameStream, welcome: ServerReply.Welcome)? {
        let policy = configuration.policy
        let deadline = policy.giveUpAfter.map { ContinuousClock.now + $0 }
        var attempt = attempt
        while true {
            var delay = policy.delay(beforeAttempt: attempt)
            if let deadline { delay = min(delay, max(deadline - ContinuousClock.now, .zero)) }
            if !sleep(delay) { return nil }
            if let deadline, let limit = policy.giveUpAfter, ContinuousClock.now >= deadline, attempt > 1 {
                router.giveUp(after: limit)
                return nil
            }
            guard router.retry() else { return nil }
            do {
                let timeout = deadline.map { Self.seconds($0 - ContinuousClock.now) } ?? Self.handshakeTimeoutSeconds
                return try connectAndGreet(timeoutSeconds: max(1, min(timeout, Self.handshakeTimeoutSeconds)))
            } catch {
                guard let next = router.attemptFailed(error) else { return nil }
                attempt = next
            }
        }
    }

    /// Sleeps for `duration` in short slices, running the jobs that arrive meanwhile; `false`
    /// when the client closed meanwhile.
    private func sleep(_ duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            if router.closedReason != nil { return false }
            jobs.runJobs(for: min(deadline - ContinuousClock.now, .milliseconds(20)))
        }
        return router.closedReason == nil
    }

    private static func seconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) + (duration.components.attoseconds > 0 ? 1 : 0)
    }

    /// Connects and completes the handshake: `hello` with the client id, then `welcome`
    /// within `timeoutSeconds`. `close()` meanwhile ends it at once.
    private func connectAndGreet(timeoutSeconds: Int = handshakeTimeoutSeconds) throws(SyncClientError) -> (
        frames: FrameStream, welcome: ServerReply.Welcome
    ) {
        let socket = try UnixSocket(path: configuration.socketPath, wakeUp: jobs.wakeUp)
        guard router.connectionOpened(socket) else {
            socket.shutDown()
            throw .connectionClosed(.closedByClient)
        }
        let hello = HelloRequest(
            id: 0, client: configuration.clientName, app: configuration.app, clientID: configuration.clientID,
            features: ["patch"]
        ).encoded()
        // A daemon that refuses this user says so and closes at once, maybe before the hello
        // arrives: a failed write still reads what the daemon said.
        socket.write(FrameEncoder.frame(hello))
        let frames = FrameStream(socket: socket, maximumFrameLength: Self.maximumFrameLength, jobs: jobs)
        frames.receiveTimeoutSeconds = timeoutSeconds
        let reply: ServerReply
        do throws(SyncClientError) {
            reply = try frames.nextReply().reply
        } catch .connectionClosed(let reason) {
            throw socket.writeFailure ?? .connectionClosed(.noWelcome(reason))
        }
        frames.receiveTimeoutSeconds = nil
        switch reply {
        case .welcome(let welcome): return (frames, welcome)
        case .error(let error): throw SyncClient.error(from: error)
        default: throw .protocolViolation("expected welcome, got \(reply.typeName)")
        }
    }

    /// Reads and routes frames until the connection ends; returns why it ended.
    private func readUntilEnd(_ frames: FrameStream) -> SyncClientError {
        do {
            while true {
                let (reply, payload) = try frames.nextReply()
                try router.route(reply, payload: payload)
            }
        } catch {
            return error
        }
    }
}
