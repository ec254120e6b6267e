/// The requests each connection still awaits an answer to: dispatches waiting for their
/// commit, history reads, rebuilds of past versions, side effects running. A connection whose
/// client ended its input closes once it awaits nothing, so "finished" is read from here and
/// never counted by hand: a request is entered when its answer is deferred and leaves only
/// when that answer is queued (`Engine.answer`), or with its connection.
struct RequestBook {
    /// One awaited request.
    struct Token: Hashable {
        fileprivate let value: UInt64
    }

    /// Whose request a token stands for.
    struct Awaited {
        /// The connection that asked.
        let connectionID: Int
        /// The id the client gave the request.
        let requestID: Int64
    }

    private var awaited: [Token: Awaited] = [:]
    /// How many requests each connection awaits, for connections that await any: a count,
    /// not a set of tokens, so that entering and taking a request allocate nothing (a set
    /// per connection was made anew each time it emptied, and copied on every take).
    private var countsByConnection: [Int: Int] = [:]
    private var nextToken: UInt64 = 1

    /// Enters request `requestID` of connection `connectionID`, whose answer comes later.
    mutating func enter(_ requestID: Int64, of connectionID: Int) -> Token {
        let token = Token(value: nextToken)
        nextToken += 1
        awaited[token] = Awaited(connectionID: connectionID, requestID: requestID)
        countsByConnection[connectionID, default: 0] += 1
        return token
    }

    /// Takes `token` out, its answer being queued now; `nil` when its connection is gone.
    mutating func take(_ token: Token) -> Awaited? {
        guard let request = awaited.removeValue(forKey: token) else { return nil }
        let remaining = (countsByConnection[request.connectionID] ?? 1) - 1
        countsByConnection[request.connectionID] = remaining > 0 ? remaining : nil
        return request
    }

    /// Whether connection `connectionID` awaits an answer.
    func awaitsAnswers(_ connectionID: Int) -> Bool { countsByConnection[connectionID] != nil }

    /// How many answers connection `connectionID` awaits.
    func count(of connectionID: Int) -> Int { countsByConnection[connectionID] ?? 0 }

    /// Forgets the requests of a connection that is gone: nobody is answered. It goes through
    /// every awaited request (connections close far less often than requests are answered).
    mutating func drop(_ connectionID: Int) {
        guard countsByConnection.removeValue(forKey: connectionID) != nil else { return }
        awaited = awaited.filter { $0.value.connectionID != connectionID }
    }
}
