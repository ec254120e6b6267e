/// Which numbered dispatches the daemon applied, per client id: what makes a resent dispatch
/// apply at most once.
///
/// For each client id it keeps the most recent applied `(sequence → version)` pairs (the
/// window) and the highest sequence that left the window (the floor). A sequence above the
/// newest one is new; one in the window was applied at that version; any other one at or below
/// the newest is stale: it left the window, or was skipped, and the ledger cannot say which.
///
/// ```
///        floor            window (sequence → version)         newest
///  ──stale──┤  stale │ 5→40 │ 6→41 │ stale(7) │ 8→52 │ ├──new──▶
/// ```
///
/// Only pairs whose version is durable leave the window, and then only while more than
/// `windowSize` durable pairs remain. So after a failed commit, `forget(after:)` takes back the
/// pairs of the lost versions and what remains is exactly what the disk holds: a resend of a lost
/// dispatch is new again, and the floor never covers a version that was not durable.
///
/// At most `clientLimit` client ids are kept; past it, the one whose last applied dispatch is the
/// oldest is forgotten, and its resends are new again (the documented limit of the guarantee).
/// A value type without I/O, so that recovery can rebuild it from the journal exactly as the
/// server built it.
package struct DispatchLedger: Equatable, Sendable {
    /// A numbered dispatch: its client id and sequence.
    package struct Key: Hashable, Sendable {
        /// The client id from the connection's hello.
        package var clientID: String
        /// The dispatch's sequence, at least 1.
        package var sequence: UInt64

        /// The key of `sequence` of `clientID`.
        package init(clientID: String, sequence: UInt64) {
            self.clientID = clientID
            self.sequence = sequence
        }
    }

    /// What the ledger knows of a numbered dispatch.
    enum Verdict: Equatable {
        /// Not applied yet: apply it and `record` it.
        case new
        /// Applied before, producing `version` (which may still wait for its commit).
        case applied(version: UInt64)
        /// At or below `highest`, the newest applied sequence, and not in the window: it may or
        /// may not have been applied, and must not be applied now.
        case stale(highest: UInt64)
    }

    /// One applied numbered dispatch.
    struct Applied: Equatable {
        var sequence: UInt64
        var version: UInt64
    }

    /// What the ledger keeps for one client id.
    struct Client: Equatable {
        /// The highest sequence that left the window; 0 when none did.
        var floor: UInt64 = 0
        /// Applied dispatches, sequences and versions increasing; never empty.
        var recent: [Applied] = []

        /// The version of this client's newest applied dispatch: its place in eviction order.
        var lastVersion: UInt64 { recent.last?.version ?? 0 }
    }

    /// Durable pairs kept per client id.
    package let windowSize: Int
    /// Client ids kept.
    package let clientLimit: Int
    /// The memory, by client id.
    private(set) var clients: [String: Client] = [:]
    /// Client ids with the version of an action of theirs, oldest first: a queue from which the
    /// id to evict is taken. A client touched again leaves its older entry behind, skipped when
    /// it reaches the front (it no longer matches the client's last version), so that recording
    /// costs O(1) however many clients there are.
    private var evictionQueue: [(version: UInt64, clientID: String)] = []
    private var evictionQueueStart = 0

    /// An empty ledger with these limits.
    package init(windowSize: Int = 256, clientLimit: Int = 10_000) {
        precondition(windowSize >= 1 && clientLimit >= 1, "a ledger keeps at least one pair and one client")
        self.windowSize = windowSize
        self.clientLimit = clientLimit
    }

    package static func == (left: DispatchLedger, right: DispatchLedger) -> Bool {
        left.windowSize == right.windowSize && left.clientLimit == right.clientLimit && left.clients == right.clients
    }

    /// How many client ids are kept.
    package var clientCount: Int { clients.count }

    /// What is known of `key`.
    func verdict(for key: Key) -> Verdict {
        guard let client = clients[key.clientID], let newest = client.recent.last, key.sequence <= newest.sequence
        else { return .new }
        if let applied = client.recent.binarySearch(key.sequence) { return .applied(version: applied.version) }
        return .stale(highest: newest.sequence)
    }

    /// The highest sequence of `clientID` applied at or below version `durable`; 0 for none.
    func lastSequence(of clientID: String, durableThrough durable: UInt64) -> UInt64 {
        guard let client = clients[clientID] else { return 0 }
        return client.recent.last { $0.version <= durable }?.sequence ?? client.floor
    }

    /// Notes that `key` was applied as `version` (the newest version so far), while versions up
    /// to `durable` are on disk.
    ///
    /// The server records only keys whose verdict was `new`. Recovery records what the journal
    /// holds, which may include a sequence at or below a client's newest one if the daemon had
    /// evicted that client before: the client then starts over, as it did at the time.
    package mutating func record(_ key: Key, version: UInt64, durableThrough durable: UInt64) {
        // Changed where it is stored: one lookup, instead of a removal and an insertion.
        Self.append(
            Applied(sequence: key.sequence, version: version), to: &clients[key.clientID, default: Client()],
            windowSize: windowSize, durableThrough: durable)
        evictionQueue.append((version, key.clientID))
        evictOverLimit()
    }

    /// Takes back every dispatch applied after `version` (their commit failed): the ledger is
    /// as it was when `version` was the newest.
    mutating func forget(after version: UInt64) {
        for (clientID, client) in clients where client.lastVersion > version {
            var kept = client
            kept.recent.removeAll { $0.version > version }
            clients[clientID] = kept.recent.isEmpty ? nil : kept
        }
        rebuildEvictionQueue()
    }

    /// Adds `applied` as `client`'s newest; a sequence not above its newest starts the client
    /// over (see `record`).
    private static func append(
        _ applied: Applied, to client: inout Client, windowSize: Int, durableThrough durable: UInt64
    ) {
        if let newest = client.recent.last, applied.sequence <= newest.sequence { client = Client() }
        // Snapshots write a window as steps from one pair to the next (DispatchLedger+Snapshot).
        precondition(applied.version > (client.recent.last?.version ?? 0), "a ledger's versions only increase")
        client.recent.append(applied)
        trim(&client, windowSize: windowSize, durableThrough: durable)
    }

    /// Drops durable pairs from the front of the window while more than `windowSize` durable
    /// ones remain (durable pairs are a prefix: versions grow with sequences).
    private static func trim(_ client: inout Client, windowSize: Int, durableThrough durable: UInt64) {
        var excess = 0
        while client.recent.count - excess > windowSize && client.recent[excess + windowSize].version <= durable {
            excess += 1
        }
        guard excess > 0 else { return }
        client.floor = client.recent[excess - 1].sequence
        client.recent.removeFirst(excess)
    }

    private mutating func evictOverLimit() {
        while clients.count > clientLimit && evictionQueueStart < evictionQueue.count {
            let (version, clientID) = evictionQueue[evictionQueueStart]
            evictionQueueStart += 1
            if clients[clientID]?.lastVersion == version { clients[clientID] = nil }
        }
        // Entries left behind by clients touched again: compact once they are most of the queue.
        if evictionQueue.count > 64 && evictionQueue.count - evictionQueueStart > 2 * clients.count {
            rebuildEvictionQueue()
        } else if evictionQueueStart > evictionQueue.count / 2 {
            evictionQueue.removeFirst(evictionQueueStart)
            evictionQueueStart = 0
        }
    }

    private mutating func rebuildEvictionQueue() {
        evictionQueue = clients.map { ($0.value.lastVersion, $0.key) }.sorted { $0.version < $1.version }
        evictionQueueStart = 0
    }
}

extension DispatchLedger {
    /// A ledger of `clients` (oldest last action first, as `encoded` lists them), trimmed to the
    /// limits with every pair durable.
    init(windowSize: Int, clientLimit: Int, clients list: [(clientID: String, client: Client)]) {
        self.init(windowSize: windowSize, clientLimit: clientLimit)
        for (clientID, var client) in list.suffix(clientLimit) where !client.recent.isEmpty {
            Self.trim(&client, windowSize: windowSize, durableThrough: .max)
            clients[clientID] = client
        }
        rebuildEvictionQueue()
    }

    /// Every client id and what is kept for it, oldest last action first.
    var orderedClients: [(clientID: String, client: Client)] {
        clients.map { ($0.key, $0.value) }.sorted { $0.client.lastVersion < $1.client.lastVersion }
    }
}

extension Array where Element == DispatchLedger.Applied {
    /// The element with `sequence`, if any (the array is sorted by sequence).
    fileprivate func binarySearch(_ sequence: UInt64) -> Element? {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if self[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return low < endIndex && self[low].sequence == sequence ? self[low] : nil
    }
}
