import SyncProtocol

/// The ledger as a snapshot keeps it, beside the state at the same version:
///
/// ```
/// {"clients": [{"floor": 1728, "id": "5f0c…", "runs": [1, 191547, 16, 1, 640, 16, …]}, …]}
///                                                       └── a run ───┘  └─ next ─┘
/// ```
///
/// A client's applied dispatches are written as runs: pairs whose sequence and version each
/// follow the previous pair's by one, as a client's pipelined dispatches are applied. A run is
/// three numbers: how far its first sequence and its first version are from the last pair of
/// the run before (from the floor and version 0 for the first run), and how many pairs it holds.
/// Sixteen pipelined dispatches take three numbers instead of 32, and a window of 256 sequences
/// a few hundred bytes instead of three thousand; pairs one by one take deltas smaller than the
/// numbers. Snapshots of earlier releases list every pair as `"recent": [sequence, version, …]`
/// and still decode.
///
/// Clients are listed oldest last action first, so that decoding restores the eviction order.
extension DispatchLedger {
    /// The ledger as JSON, keys sorted as `WireJSON` writes them. Written by hand: every snapshot
    /// holds it, and at 10,000 client ids this took about 5 ms (release build) where
    /// `JSONEncoder` took about 30.
    package func encoded() -> [UInt8] {
        var bytes = Array(#"{"clients":["#.utf8)
        bytes.reserveCapacity(clients.count * 128 + 16)
        for (index, (clientID, client)) in orderedClients.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += #"{"floor":"#.utf8
            JSONDigits.append(client.floor, to: &bytes)
            bytes += #","id":"#.utf8
            do {
                try WireJSON.appendString(clientID, to: &bytes)
            } catch {
                bytes += #""""#.utf8
            }
            bytes += #","runs":["#.utf8
            Self.appendRuns(of: client, to: &bytes)
            bytes += "]}".utf8
        }
        bytes += "]}".utf8
        return bytes
    }

    /// Appends `client`'s applied pairs as runs (see the format above).
    private static func appendRuns(of client: Client, to bytes: inout [UInt8]) {
        var previous = Applied(sequence: client.floor, version: 0)
        var start = client.recent.startIndex
        while start < client.recent.endIndex {
            var end = start
            while end + 1 < client.recent.endIndex,
                client.recent[end + 1].sequence == client.recent[end].sequence &+ 1,
                client.recent[end + 1].version == client.recent[end].version &+ 1
            {
                end += 1
            }
            if start > client.recent.startIndex { bytes.append(UInt8(ascii: ",")) }
            JSONDigits.append(client.recent[start].sequence - previous.sequence, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSONDigits.append(client.recent[start].version - previous.version, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSONDigits.append(end - start + 1, to: &bytes)
            previous = client.recent[end]
            start = end + 1
        }
    }

    /// The ledger `encoded()` wrote (or an earlier release's, with every pair listed), with these
    /// limits. Throws if the bytes do not decode or break the ledger's rules (sequences and
    /// versions must increase, above the floor).
    package init(decoding bytes: [UInt8], windowSize: Int, clientLimit: Int) throws {
        let decoded = try WireJSON.decode(Encoded.self, from: bytes)
        var list: [(clientID: String, client: Client)] = []
        for entry in decoded.clients {
            switch (entry.runs, entry.recent) {
            case (let runs?, nil):
                let client = try Self.client(floor: entry.floor, runs: runs, keeping: windowSize, id: entry.id)
                list.append((entry.id, client))
            case (nil, let recent?):
                list.append((entry.id, try Self.client(floor: entry.floor, pairs: recent, id: entry.id)))
            default:
                throw LedgerFormatError(clientID: entry.id, problem: #"not exactly one of "runs" and "recent""#)
            }
        }
        self.init(windowSize: windowSize, clientLimit: clientLimit, clients: list)
    }

    /// A client from an earlier release's list of pairs (sequence, version, sequence, …).
    private static func client(floor: UInt64, pairs: [UInt64], id: String) throws -> Client {
        guard pairs.count % 2 == 0, !pairs.isEmpty else {
            throw LedgerFormatError(clientID: id, problem: #"an empty or odd "recent" list"#)
        }
        var client = Client(floor: floor)
        for index in stride(from: 0, to: pairs.count, by: 2) {
            let applied = Applied(sequence: pairs[index], version: pairs[index + 1])
            let previous = client.recent.last ?? Applied(sequence: floor, version: 0)
            guard applied.sequence > previous.sequence, applied.version > previous.version else {
                throw LedgerFormatError(clientID: id, problem: "sequences or versions that do not increase")
            }
            client.recent.append(applied)
        }
        return client
    }

    /// A client from its runs, with only the last `windowSize` pairs expanded (all that the ledger
    /// keeps of a snapshot's durable pairs), so that a damaged length cannot make a huge window.
    private static func client(floor: UInt64, runs: [UInt64], keeping windowSize: Int, id: String) throws -> Client {
        guard runs.count % 3 == 0, !runs.isEmpty else {
            throw LedgerFormatError(clientID: id, problem: #"an empty "runs" list or one not in threes"#)
        }
        // Each run as its last pair and its length, checked as it is read.
        var ends: [(last: Applied, count: UInt64)] = []
        var previous = Applied(sequence: floor, version: 0)
        for index in stride(from: 0, to: runs.count, by: 3) {
            let (sequenceStep, versionStep, count) = (runs[index], runs[index + 1], runs[index + 2])
            guard sequenceStep > 0, versionStep > 0, count > 0 else {
                throw LedgerFormatError(clientID: id, problem: "sequences or versions that do not increase")
            }
            guard let first = previous.advanced(bySequence: sequenceStep, version: versionStep),
                let last = first.advanced(bySequence: count - 1, version: count - 1)
            else {
                throw LedgerFormatError(clientID: id, problem: "a run past the largest sequence or version")
            }
            ends.append((last, count))
            previous = last
        }
        // The last `windowSize` pairs, newest first, then the floor they leave.
        var client = Client(floor: floor)
        var kept: [Applied] = []
        for (runIndex, run) in ends.enumerated().reversed() {
            let taken = min(run.count, UInt64(windowSize - kept.count))
            for offset in 0..<taken {
                kept.append(Applied(sequence: run.last.sequence - offset, version: run.last.version - offset))
            }
            if taken < run.count {
                client.floor = run.last.sequence - taken
                break
            }
            if kept.count == windowSize {
                if runIndex > 0 { client.floor = ends[runIndex - 1].last.sequence }
                break
            }
        }
        client.recent = kept.reversed()
        return client
    }

    private struct Encoded: Decodable {
        var clients: [EncodedClient]
    }

    private struct EncodedClient: Decodable {
        var id: String
        var floor: UInt64
        var runs: [UInt64]?
        var recent: [UInt64]?
    }
}

extension DispatchLedger.Applied {
    /// This pair moved on by these steps, or nil past `UInt64.max`.
    fileprivate func advanced(bySequence sequenceStep: UInt64, version versionStep: UInt64) -> Self? {
        let (sequence, sequenceOverflow) = sequence.addingReportingOverflow(sequenceStep)
        let (version, versionOverflow) = version.addingReportingOverflow(versionStep)
        return sequenceOverflow || versionOverflow ? nil : Self(sequence: sequence, version: version)
    }
}

/// A snapshot's ledger that decodes as JSON but breaks the ledger's rules.
struct LedgerFormatError: Error, CustomStringConvertible {
    /// The client id whose entry is wrong.
    let clientID: String
    /// What is wrong with it.
    let problem: String

    /// One line naming the client id and the problem.
    var description: String { "the entry of client id \"\(clientID)\" has \(problem)" }
}
