import CPQ
import Glibc

/// One libpq connection driven through libpq's non-blocking API, so that every call has a
/// deadline of its own: a silent network partition would otherwise hang a blocking call for
/// minutes. Used from one thread at a time; not `Sendable`.
final class PostgresConnection {
    /// The rows of a query's last result, as text (`nil` for SQL NULL).
    typealias Rows = [[String?]]

    private let connection: OpaquePointer
    /// The server process serving this connection, for `pg_terminate_backend`.
    let backendPID: Int32
    /// Whether a statement sent with `send` has results not read yet.
    private var hasUnreadResults = false

    private init(_ connection: OpaquePointer) {
        self.connection = connection
        backendPID = pq.backendPID(connection)
    }

    deinit {
        pq.finish(connection)
    }

    /// Connects to `conninfo` within `timeoutMilliseconds`, as application `applicationName`.
    static func connect(_ conninfo: String, applicationName: String, timeoutMilliseconds: Int) throws(PostgresError)
        -> PostgresConnection
    {
        if let failure = SharedLogLibraries.shared.failure { throw .unreachable("cannot open libpq: \(failure)") }
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        // Keywords before `dbname` (the conninfo, expanded) are defaults it may override; those
        // after it override it.
        let keys = ["connect_timeout", "dbname", "application_name"]
        let values = [String(max(2, timeoutMilliseconds / 1000)), conninfo, applicationName]
        let started: OpaquePointer? = withCStrings(keys) { keyPointers in
            withCStrings(values) { valuePointers in pq.connectStartParams(keyPointers, valuePointers, 1) }
        }
        guard let started else { throw .unreachable("out of memory") }
        var status = PGRES_POLLING_WRITING
        while true {
            if pq.status(started) == CONNECTION_BAD { break }
            switch status {
            case PGRES_POLLING_OK:
                _ = pq.setnonblocking(started, 1)
                // libpq prints the server's notices (a shutdown's FATAL, WARNING) to stderr
                // itself; the daemon reports what matters through its own log.
                _ = pq.setNoticeProcessor(started, { _, _ in }, nil)
                return PostgresConnection(started)
            case PGRES_POLLING_FAILED:
                break
            default:
                let socket = pq.socket(started)
                guard socket >= 0 else { break }
                guard Self.wait(socket, forWriting: status == PGRES_POLLING_WRITING, until: deadline) else {
                    pq.finish(started)
                    throw .timedOut("connecting")
                }
                status = pq.connectPoll(started)
                continue
            }
            break
        }
        let message = Self.errorMessage(started)
        pq.finish(started)
        throw .unreachable(message)
    }

    /// Runs `sql` with text parameters and returns the rows of its last result. A statement
    /// that fails on the server throws `.server`; a connection that breaks, or a deadline that
    /// passes, after the statement was sent throws `.lostAfterSending` (it may have run).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = [], timeoutMilliseconds: Int) throws(PostgresError) -> Rows {
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        try readUnreadResults(until: deadline)
        // A connection the server closed meanwhile (a restart) holds its last words unread:
        // read them first, so that a dead connection fails before anything is sent.
        guard readIdleInput() else { throw .connectionLost(Self.errorMessage(connection)) }
        // Without parameters, the simple protocol, which also runs several statements at once.
        let sent =
            parameters.isEmpty
            ? pq.sendQuery(connection, sql)
            : withOptionalCStrings(parameters) { pointers in
                pq.sendQueryParams(connection, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
            }
        guard sent == 1 else { throw .connectionLost(Self.errorMessage(connection)) }
        try flush(until: deadline)
        var rows: Rows = []
        var failure: PostgresError?
        while true {
            try waitUntilNotBusy(until: deadline)
            guard let result = pq.getResult(connection) else { break }
            defer { pq.clear(result) }
            switch pq.resultStatus(result) {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_SINGLE_TUPLE:
                rows = Self.rows(of: result)
            default:
                let state = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
                let message =
                    pq.resultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                    ?? Self.errorMessage(connection)
                failure = .server(state: state, message: message)
            }
        }
        // A session the server ended (a shutdown's FATAL, SQLSTATE class 57P or 08) is a lost
        // connection, not a refusal: the statement may have committed before it.
        if case .server(let state, let message)? = failure,
            state.hasPrefix("57P") || state.hasPrefix("08") || pq.status(connection) != CONNECTION_OK
        {
            throw .lostAfterSending("\(message) (SQLSTATE \(state))")
        }
        if let failure { throw failure }
        return rows
    }

    /// Sends `sql` (no parameters) without waiting for its answer, for a statement whose result
    /// does not matter (a notification): the next `execute` reads and drops it first. Throws
    /// when it cannot be sent.
    func send(_ sql: String) throws(PostgresError) {
        try readUnreadResults(until: Deadline(milliseconds: 0))
        guard readIdleInput(), pq.sendQuery(connection, sql) == 1 else {
            throw .connectionLost(Self.errorMessage(connection))
        }
        hasUnreadResults = true
        // What the socket does not take now goes out when the next statement is sent.
        if pq.flush(connection) < 0 { throw .lostAfterSending(Self.errorMessage(connection)) }
    }

    /// Reads and drops the results of a statement sent with `send`, by `deadline` (it was
    /// sent before, so it is usually in). A connection found broken then has not sent the next
    /// statement yet.
    private func readUnreadResults(until deadline: Deadline) throws(PostgresError) {
        guard hasUnreadResults else { return }
        let late = Deadline(milliseconds: max(deadline.remainingMilliseconds, 1_000))
        do {
            try flush(until: late)
            while true {
                try waitUntilNotBusy(until: late)
                guard let result = pq.getResult(connection) else { break }
                pq.clear(result)
            }
        } catch {
            throw .connectionLost(Self.errorMessage(connection))
        }
        hasUnreadResults = false
    }

    /// Reads what the server sent without waiting and returns the payloads of the
    /// notifications received since the last call. Throws when the connection is gone.
    func takeNotifications() throws(PostgresError) -> [String] {
        guard pq.consumeInput(connection) == 1 else { throw .connectionLost(Self.errorMessage(connection)) }
        var payloads: [String] = []
        while let notification = pq.notifies(connection) {
            payloads.append(String(cString: notification.pointee.extra))
            pq.freemem(notification)
        }
        return payloads
    }

    /// Waits until the server sends something or `timeoutMilliseconds` pass.
    func waitForInput(timeoutMilliseconds: Int) {
        _ = Self.wait(pq.socket(connection), forWriting: false, until: Deadline(milliseconds: timeoutMilliseconds))
    }

    /// Reads what the server sent while the connection was idle and says whether it is still
    /// open. A server that ends a session (a shutdown, a restart) sends a FATAL message, which
    /// libpq takes as a notice, then closes: one read takes the message, and only the next one
    /// sees the end of the stream. So it reads again while the socket has more.
    private func readIdleInput() -> Bool {
        for _ in 0..<4 {
            guard pq.consumeInput(connection) == 1, pq.status(connection) == CONNECTION_OK else { return false }
            var descriptor = pollfd(fd: pq.socket(connection), events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return true }
        }
        return true
    }

    private func flush(until deadline: Deadline) throws(PostgresError) {
        while true {
            let result = pq.flush(connection)
            if result == 0 { return }
            if result < 0 { throw .lostAfterSending(Self.errorMessage(connection)) }
            guard Self.wait(pq.socket(connection), forWriting: true, until: deadline) else {
                throw .lostAfterSending("no answer in time")
            }
        }
    }

    private func waitUntilNotBusy(until deadline: Deadline) throws(PostgresError) {
        while true {
            guard pq.consumeInput(connection) == 1 else { throw .lostAfterSending(Self.errorMessage(connection)) }
            if pq.isBusy(connection) == 0 { return }
            guard Self.wait(pq.socket(connection), forWriting: false, until: deadline) else {
                throw .lostAfterSending("no answer in time")
            }
        }
    }

    private static func rows(of result: OpaquePointer) -> Rows {
        let rowCount = pq.ntuples(result)
        let columnCount = pq.nfields(result)
        var rows: Rows = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                values.append(
                    pq.getisnull(result, row, column) == 1
                        ? nil : pq.getvalue(result, row, column).map { String(cString: $0) })
            }
            rows.append(values)
        }
        return rows
    }

    /// libpq's last error for `connection`, on one line.
    private static func errorMessage(_ connection: OpaquePointer) -> String {
        guard let message = pq.errorMessage(connection) else { return "unknown error" }
        let text = String(cString: message).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters() }.filter {
            !$0.isEmpty
        }
        return text.isEmpty ? "unknown error" : text.joined(separator: "; ")
    }

    /// Waits for `socket` to become readable (or writable) until `deadline`; `false` if it passed.
    private static func wait(_ socket: Int32, forWriting: Bool, until deadline: Deadline) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0)
        while true {
            let remaining = deadline.remainingMilliseconds
            guard remaining > 0 else { return false }
            let result = poll(&descriptor, 1, Int32(min(remaining, Int(Int32.max))))
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return true }
        }
    }
}

/// A point in time on the monotonic clock.
struct Deadline {
    private let end: Int64

    /// `milliseconds` from now.
    init(milliseconds: Int) {
        end = Self.now() + Int64(milliseconds)
    }

    /// Milliseconds left, 0 once passed.
    var remainingMilliseconds: Int { Int(max(0, end - Self.now())) }

    /// The monotonic clock, in milliseconds.
    static func now() -> Int64 {
        microseconds() / 1000
    }

    /// The monotonic clock, in microseconds.
    static func microseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> Substring {
        var text = self
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}

/// Calls `body` with a NULL-terminated array of C strings for `strings`.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result)
    -> Result
{
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Calls `body` with an array of C strings for `strings`, NULL where a string is `nil`.
private func withOptionalCStrings<Result>(
    _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result
) -> Result {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
