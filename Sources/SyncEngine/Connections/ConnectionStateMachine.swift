/// The lifecycle of one connection, as a value: every transition is a mutating function that
/// returns the effects the connection must perform on its socket (it does no I/O itself).
///
/// ```
///  greeting ──greet()──▶ serving
///     └──────────┬──────────┘
///                ├──drain(reason)──▶ draining(reason) ──queue written──▶ closed(reason)
///                └──close(reason)─────────────┴─────────────────────────▶ closed(reason)
///                   a socket error, a slow consumer, the daemon stopping: queued bytes dropped
///
///  the input side of greeting and serving:
///  stopped ──startReading()──▶ reading ──queue past the soft limit──▶ stopped
///  stopped ──a flush leaves at most half the soft limit queued──▶ reading
///  stopped or reading ──endInput()──▶ ended(byClient | byServer): never read again
/// ```
///
/// Frames are delivered and replies queued only while greeting or serving; a draining
/// connection writes what it has queued (an error saying why, typically), then closes.
struct ConnectionStateMachine {
    /// Where the connection is in its life.
    enum State: Equatable {
        /// Accepted; no valid `hello` yet.
        case greeting(Input)
        /// The client said `hello` and was welcomed.
        case serving(Input)
        /// Nothing more is read or queued; what is queued is written, then the connection closes.
        case draining(CloseReason)
        /// The socket is closed (or closing) and the engine let go of it, once.
        case closed(CloseReason)
    }

    /// The reading side of a connection that is greeting or serving.
    enum Input: Equatable {
        /// Not reading now: not started yet, or paused because the client does not read its replies.
        case stopped
        /// Frames are read and delivered.
        case reading
        /// Never read again: the client finished sending, or the server stopped listening to it.
        case ended(InputEnd)
    }

    /// Who ended a connection's input.
    enum InputEnd: Equatable {
        /// The client shut down its sending side (end of stream); it may still read.
        case byClient
        /// The server stopped reading: a shutdown, or a byte stream that broke the framing.
        case byServer
    }

    /// What the connection must do after a transition, in this order: `close` alone if set,
    /// otherwise stop reading, ask for a flush at the end of the pass, start reading.
    struct Effects: Equatable {
        /// Stop reading the socket (`uv_read_stop`).
        var stopReading = false
        /// Ask for a write at the end of this loop pass.
        var scheduleFlush = false
        /// Start reading the socket (`uv_read_start`).
        var startReading = false
        /// Let go of the connection for this reason, then close the socket.
        var close: CloseReason?

        /// Nothing to do.
        static let none = Effects()
    }

    /// Queued bytes past which reading pauses; it resumes below half of it.
    let softQueueLimit: Int
    /// Unwritten reply bytes past which the client is disconnected as a slow consumer.
    let hardQueueLimit: Int
    /// Where the connection is.
    private(set) var state = State.greeting(.stopped)
    /// Whether a flush was already asked for in this loop pass.
    private(set) var isFlushScheduled = false

    /// A just-accepted connection: greeting, not reading yet.
    init(softQueueLimit: Int, hardQueueLimit: Int) {
        self.softQueueLimit = softQueueLimit
        self.hardQueueLimit = hardQueueLimit
    }

    /// Whether frames are delivered and replies queued: greeting or serving.
    var isOpen: Bool { input != nil }

    /// Whether a valid `hello` was received and the connection is still serving.
    var isGreeted: Bool {
        if case .serving = state { return true }
        return false
    }

    /// Whether the socket is closed (or closing).
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Whether the client finished sending (end of stream read) and the connection is still open.
    var clientEndedInput: Bool { input == .ended(.byClient) }

    /// Starts reading, if the connection is open and not reading yet.
    mutating func startReading() -> Effects {
        guard input == .stopped else { return .none }
        setInput(.reading)
        return Effects(startReading: true)
    }

    /// A valid `hello` was answered: greeting becomes serving.
    mutating func greet() {
        if case .greeting(let input) = state { state = .serving(input) }
    }

    /// Bytes were queued: `replyByteCount` of unwritten replies, `queuedByteCount` in all
    /// (with the write in flight). Disconnects a slow consumer past the hard limit, pauses
    /// reading past the soft limit, and asks for a flush.
    mutating func didQueue(replyByteCount: Int, queuedByteCount: Int) -> Effects {
        guard let input else { return .none }
        if replyByteCount > hardQueueLimit { return close(.slowConsumer(limit: hardQueueLimit)) }
        var effects = Effects.none
        // Backpressure: a client that does not read its replies gets no new requests read.
        if queuedByteCount > softQueueLimit, input == .reading {
            setInput(.stopped)
            effects.stopReading = true
        }
        effects.scheduleFlush = scheduleFlush()
        return effects
    }

    /// A flush begins (the one asked for, or a write callback's): returns whether the
    /// connection can still write.
    mutating func beginFlush() -> Bool {
        isFlushScheduled = false
        return !isClosed
    }

    /// A flush ended: it found nothing to write (`wroteNothing`), or started a write, leaving
    /// `queuedByteCount` bytes queued or in flight. A draining connection whose queue is
    /// written closes; a paused one resumes reading once below half the soft limit.
    mutating func didFlush(wroteNothing: Bool, queuedByteCount: Int) -> Effects {
        if wroteNothing, case .draining(let reason) = state { return close(reason) }
        guard input == .stopped, queuedByteCount <= softQueueLimit / 2 else { return .none }
        setInput(.reading)
        return Effects(startReading: true)
    }

    /// Stops reading and queuing for `reason`; the queue is written, then the connection closes.
    mutating func drain(_ reason: CloseReason) -> Effects {
        guard let input else { return .none }
        state = .draining(reason)
        return Effects(stopReading: input == .reading, scheduleFlush: scheduleFlush())
    }

    /// No more frames will be read, because of `end`, whatever the queue does; replies still go out.
    mutating func endInput(_ end: InputEnd) -> Effects {
        guard let input, input == .stopped || input == .reading else { return .none }
        setInput(.ended(end))
        return Effects(stopReading: input == .reading)
    }

    /// The one way to the closed state: returns the close effect the first time only.
    mutating func close(_ reason: CloseReason) -> Effects {
        guard !isClosed else { return .none }
        state = .closed(reason)
        return Effects(close: reason)
    }

    /// The input side, while greeting or serving.
    private var input: Input? {
        switch state {
        case .greeting(let input), .serving(let input): input
        case .draining, .closed: nil
        }
    }

    private mutating func setInput(_ input: Input) {
        switch state {
        case .greeting: state = .greeting(input)
        case .serving: state = .serving(input)
        case .draining, .closed: break
        }
    }

    /// Whether a flush must be asked for now (not already asked for in this pass).
    private mutating func scheduleFlush() -> Bool {
        guard !isFlushScheduled else { return false }
        isFlushScheduled = true
        return true
    }
}
