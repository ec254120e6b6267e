/// The requests each connection still awaits an answer to: dispatches waiting for their
/// commit, history reads, rebuilds of past versions, side effects running. A connection whose
/// client ended its input closes once it awaits nothing, so "finished" is read from here and
/// never counted by hand: a request is entered when its answer is deferred and leaves only
/// when that answer is queued (`Engine.answer`), or with its connection.
struct RequestBook {
    /// One awaited request.
    struct Token: Hashable {
        /// Where the request is kept.
        fileprivate let slot: Int
        /// Which of the requests kept there over time it is: a token already taken finds a
        /// later request in its slot, or none, and is answered nothing.
        fileprivate let generation: UInt64
    }

    /// Whose request a token stands for.
    struct Awaited {
        /// The connection that asked.
        let connectionID: Int
        /// The id the client gave the request.
        let requestID: Int64
    }

    /// A request's place: its generation, and the request while it is awaited.
    private struct Slot {
        var generation: UInt64
        var awaited: Awaited?
    }

    /// The requests, by slot. A taken request's slot is used again (`freeSlots`), so a token
    /// finds its request by index: entering and taking one hash nothing (a dictionary by token
    /// was two lookups and a deletion for every dispatch).
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// How many requests each connection awaits, for connections that await any: a count,
    /// not a set of tokens, so that entering and taking a request allocate nothing (a set
    /// per connection was made anew each time it emptied, and copied on every take).
    private var countsByConnection: [Int: Int] = [:]
    private var nextGeneration: UInt64 = 1

    /// Enters request `requestID` of connection `connectionID`, whose answer comes later.
    mutating func enter(_ requestID: Int64, of connectionID: Int) -> Token {
        let awaited = Awaited(connectionID: connectionID, requestID: requestID)
        let entered = Slot(generation: nextGeneration, awaited: awaited)
        nextGeneration += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = entered
        } else {
            slot = slots.count
            slots.append(entered)
        }
        countsByConnection[connectionID, default: 0] += 1
        return Token(slot: slot, generation: entered.generation)
    }

    /// Takes `token` out, its answer being queued now; `nil` when its connection is gone.
    mutating func take(_ token: Token) -> Awaited? {
        guard slots[token.slot].generation == token.generation, let request = slots[token.slot].awaited else {
            return nil
        }
        slots[token.slot].awaited = nil
        freeSlots.append(token.slot)
        let remaining = (countsByConnection[request.connectionID] ?? 1) - 1
        countsByConnection[request.connectionID] = remaining > 0 ? remaining : nil
        return request
    }

    /// Whether connection `connectionID` awaits an answer.
    func awaitsAnswers(_ connectionID: Int) -> Bool { countsByConnection[connectionID] != nil }

    /// How many answers connection `connectionID` awaits.
    func count(of connectionID: Int) -> Int { countsByConnection[connectionID] ?? 0 }

    /// Forgets the requests of a connection that is gone: nobody is answered. It goes through
    /// every slot, as many as requests were ever awaited at once (connections close far less
    /// often than requests are answered).
    mutating func drop(_ connectionID: Int) {
        guard countsByConnection.removeValue(forKey: connectionID) != nil else { return }
        for slot in slots.indices where slots[slot].awaited?.connectionID == connectionID {
            slots[slot].awaited = nil
            freeSlots.append(slot)
        }
    }
}
