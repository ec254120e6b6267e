import SyncProtocol

/// The ledger as a snapshot keeps it, beside the state at the same version:
///
/// ```
/// {"clients": [{"floor": 0, "id": "5f0c…", "recent": [1, 40, 2, 41]}, …]}
///                                         sequence, version, sequence, version, …
/// ```
///
/// Clients are listed oldest last action first, so that decoding restores the eviction order.
extension DispatchLedger {
    /// The ledger as JSON, keys sorted as `WireJSON` writes them. Written by hand: snapshots are
    /// encoded on the event loop, and at 10,000 client ids this takes about 5 ms (release build)
    /// where `JSONEncoder` takes about 30.
    package func encoded() -> [UInt8] {
        var bytes = Array(#"{"clients":["#.utf8)
        bytes.reserveCapacity(clients.count * 80 + 16)
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
            bytes += #","recent":["#.utf8
            for (position, applied) in client.recent.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONDigits.append(applied.sequence, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                JSONDigits.append(applied.version, to: &bytes)
            }
            bytes += "]}".utf8
        }
        bytes += "]}".utf8
        return bytes
    }

    /// The ledger `encoded()` wrote, with these limits. Throws if the bytes do not decode or
    /// break the ledger's rules (sequences and versions must increase, above the floor).
    package init(decoding bytes: [UInt8], windowSize: Int, clientLimit: Int) throws {
        let decoded = try WireJSON.decode(Encoded.self, from: bytes)
        var list: [(clientID: String, client: Client)] = []
        for entry in decoded.clients {
            guard entry.recent.count % 2 == 0, !entry.recent.isEmpty else {
                throw LedgerFormatError(clientID: entry.id, problem: "an empty or odd \"recent\" list")
            }
            var client = Client(floor: entry.floor)
            for index in stride(from: 0, to: entry.recent.count, by: 2) {
                let applied = Applied(sequence: entry.recent[index], version: entry.recent[index + 1])
                let previous = client.recent.last ?? Applied(sequence: client.floor, version: 0)
                guard applied.sequence > previous.sequence, applied.version > previous.version else {
                    throw LedgerFormatError(clientID: entry.id, problem: "sequences or versions that do not increase")
                }
                client.recent.append(applied)
            }
            list.append((entry.id, client))
        }
        self.init(windowSize: windowSize, clientLimit: clientLimit, clients: list)
    }

    private struct Encoded: Decodable {
        var clients: [EncodedClient]
    }

    private struct EncodedClient: Decodable {
        var id: String
        var floor: UInt64
        var recent: [UInt64]
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
