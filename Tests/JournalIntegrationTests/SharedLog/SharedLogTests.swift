import Foundation
import Glibc
import SyncLock
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// Several daemons on one shared log in PostgreSQL: one order for everyone, changes that arrive
/// by themselves, conflicts rebased (never lost, refused with a reason when they no longer
/// apply), and an undo that never reverts another host's change.
@Suite(.blocking, .enabled(if: PrivatePostgres.isAvailable, Comment(rawValue: PrivatePostgres.skipReason)))
struct SharedLogTests {
    /// One writer: a numbered connection to `daemon` sending `count` mixed actions, 16 in
    /// flight; returns the acked sequences with their versions, and every refusal.
    private static func write(
        to daemon: DaemonHarness, clientID: String, count: Int
    ) throws -> (acked: [Int: Int], refusals: [WireClient.Message]) {
        let client = try WireClient(path: daemon.socketPath)
        _ = try client.hello(clientID: clientID)
        var generator = SplitMix(seed: UInt64(abs(clientID.hashValue)))
        var acked: [Int: Int] = [:]
        var refusals: [WireClient.Message] = []
        var sequence = 0
        while sequence < count {
            var batch: [[String: Any]] = []
            var sequences: [Int: Int] = [:]
            for _ in 0..<min(16, count - sequence) {
                sequence += 1
                let id = client.makeID()
                sequences[id] = sequence
                let number = Int(generator.next() % 60) + 1
                let action: (String, [String: Any])
                switch generator.next() % 6 {
                case 0, 1, 2: action = ("add", ["text": "\(clientID) \(sequence)"])
                case 3: action = ("complete", ["number": number])
                case 4: action = ("edit", ["number": number, "text": "edited by \(clientID) \(sequence)"])
                default: action = ("remove", ["number": number])
                }
                batch.append(WireClient.dispatchMessage(id: id, action.0, action.1, sequence: sequence))
            }
            for (id, reply) in try client.pipeline(batch) {
                if reply.type == "ack", let version = reply.version {
                    acked[sequences[id]!] = version
                } else {
                    refusals.append(reply)
                }
            }
        }
        return (acked, refusals)
    }

    @Test func concurrentWritersOnThreeDaemonsEndInOneOrderAndOneState() throws {
        let cluster = try SharedLogCluster(daemons: 3)
        defer { cluster.close() }
        let results = Locked<[String: (acked: [Int: Int], refusals: [WireClient.Message])]>([:])
        let failures = Locked<[String]>([])
        var threads: [Thread] = []
        for (index, daemon) in cluster.daemons.enumerated() {
            for writer in 0..<2 {
                let clientID = "w\(index)-\(writer)"
                let thread = Thread {
                    do {
                        let result = try Self.write(to: daemon, clientID: clientID, count: 400)
                        results.withLock { $0[clientID] = result }
                    } catch {
                        failures.withLock { $0.append("\(clientID): \(error)") }
                    }
                }
                threads.append(thread)
                thread.start()
            }
        }
        try eventually(timeout: 300, "the writers did not finish") {
            results.withLock { $0.count } + failures.withLock { $0.count } == 6 ? true : nil
        }
        #expect(failures.withLock { $0 } == [])
        let all = results.withLock { $0 }
        let ackedCount = all.values.reduce(0) { $0 + $1.acked.count }
        let refusals = all.values.flatMap(\.refusals)
        #expect(ackedCount + refusals.count == 2400)
        for refusal in refusals {
            #expect(
                refusal.code == "rejected" && !(refusal["message"] as? String ?? "").isEmpty,
                "every refusal is a rejection with a reason: \(refusal)")
        }

        let rows = try cluster.logRows()
        #expect(rows.map(\.version) == Array(1...rows.count), "versions are gapless and in order")
        let agreed = try cluster.agreedList(atLeast: rows.count)
        #expect(agreed.version == rows.count)
        // Every acked dispatch is in the log once, at the version its ack named.
        var logged: [String: (sequence: Int, version: Int)] = [:]
        var duplicates = 0
        for row in rows {
            guard let clientID = row.clientID, let sequence = row.sequence else { continue }
            if logged["\(clientID)#\(sequence)"] != nil { duplicates += 1 }
            logged["\(clientID)#\(sequence)"] = (sequence, row.version)
        }
        #expect(duplicates == 0)
        #expect(logged.count == ackedCount, "the log holds exactly the acked dispatches")
        for (clientID, result) in all {
            for (sequence, version) in result.acked {
                #expect(
                    logged["\(clientID)#\(sequence)"]?.version == version,
                    "\(clientID) #\(sequence) acked as \(version)")
            }
        }
        #expect(
            Set(rows.compactMap(\.host)).count == 1 && rows.allSatisfy { $0.host != nil }, "every row names its host")
        for daemon in cluster.daemons { #expect(try daemon.stop() == 0) }
        // Each daemon rebased at least once or the test did not test conflicts.
        let overtaken = cluster.daemons.map { daemon in
            daemon.process.standardError.split(separator: "\n").last { $0.contains("overtaken by other daemons") }.map(
                String.init) ?? ""
        }
        #expect(overtaken.allSatisfy { !$0.isEmpty }, "\(overtaken)")
    }

    @Test func aChangeOnOneDaemonReachesTheSubscribersOfAnother() throws {
        let cluster = try SharedLogCluster(daemons: 2)
        defer { cluster.close() }
        let (a, b) = (cluster.daemons[0], cluster.daemons[1])
        let watcher = try b.greetedClient()
        let subscription = try watcher.subscribeAndWait("list")
        #expect(subscription.update.itemTexts == [])
        #expect(try a.todo("add", "from host A").status == 0)
        let update = try watcher.receive()
        #expect(update.type == "update" && update.version == 1 && update.itemTexts == ["from host A"])
        #expect(try b.todo("list").output == "1 [ ] from host A\n1 open, 0 done\n")
        let status = try b.todo("status").output
        #expect(
            status.contains("log: PostgreSQL \(cluster.postgres.socketDirectory)/postgres (shared with other hosts)"),
            "\(status)")
        #expect(status.contains("log head: 1") && status.contains("database: reachable"), "\(status)")
        let log = try b.todo("log").output
        #expect(log.contains(" on \(try hostName())  add "), "\(log)")
    }

    /// libpq and libcrypto are opened when a daemon reads its connection string, not linked: a
    /// daemon on SQLite has neither mapped, nor the TLS libraries libpq pulls in.
    @Test func onlyADaemonOnASharedLogLoadsLibpq() throws {
        let cluster = try SharedLogCluster(daemons: 1)
        defer { cluster.close() }
        let alone = try DaemonHarness()
        let shared = try mappedFiles(of: cluster.daemons[0].process.pid)
        #expect(shared.maps("libpq.so") && shared.maps("libcrypto.so"), "\(shared)")
        let onSQLite = try mappedFiles(of: alone.process.pid)
        for library in ["libpq.so", "libcrypto.so", "libssl.so", "libgnutls.so"] {
            #expect(!onSQLite.maps(library), "\(library): \(onSQLite)")
        }
        #expect(try alone.stop() == 0)
    }

    /// Two daemons edit and remove the same items at once: every outcome is an ack or a
    /// rejection with its reason, and both end with the same list, in which each item is
    /// either removed or carries one of the edits.
    @Test func conflictingEditsAndRemovalsEndTheSameEverywhere() throws {
        let cluster = try SharedLogCluster(daemons: 2)
        defer { cluster.close() }
        let (a, b) = (cluster.daemons[0], cluster.daemons[1])
        let seeding = try a.greetedClient()
        let adds = (1...30).map { n in WireClient.dispatchMessage(id: seeding.makeID(), "add", ["text": "item \(n)"]) }
        #expect(try seeding.pipeline(adds).values.allSatisfy { $0.type == "ack" })
        _ = try cluster.agreedList(atLeast: 30)
        let replies = Locked<[WireClient.Message]>([])
        let failures = Locked<[String]>([])
        let done = Locked(0)
        for (daemon, name) in [(a, "a"), (b, "b")] {
            Thread {
                do {
                    let client = try daemon.greetedClient()
                    var messages: [[String: Any]] = []
                    for n in 1...30 {
                        messages.append(
                            WireClient.dispatchMessage(
                                id: client.makeID(), "edit", ["number": n, "text": "edited on \(name)"]))
                        if (n + (name == "a" ? 0 : 1)) % 2 == 0 {
                            messages.append(WireClient.dispatchMessage(id: client.makeID(), "remove", ["number": n]))
                        }
                    }
                    let got = try client.pipeline(messages)
                    replies.withLock { $0.append(contentsOf: got.values) }
                } catch {
                    failures.withLock { $0.append("\(name): \(error)") }
                }
                done.withLock { $0 += 1 }
            }.start()
        }
        try eventually(timeout: 120, "the writers did not finish") { done.withLock { $0 } == 2 ? true : nil }
        #expect(failures.withLock { $0 } == [])
        let all = replies.withLock { $0 }
        #expect(all.count == 90)
        let refused = all.filter { $0.type != "ack" }
        for refusal in refused {
            #expect(
                refusal.code == "rejected" && (refusal["message"] as? String ?? "").hasPrefix("no item "), "\(refusal)")
        }
        let rows = try cluster.logRows()
        let agreed = try cluster.agreedList(atLeast: rows.count)
        #expect(agreed.version == rows.count && rows.count == 30 + all.count - refused.count)
        #expect(agreed.items.isEmpty, "every item was removed by one of the daemons: \(agreed.items)")
    }

    /// One host adds and at once undoes its own change while another host keeps adding: each
    /// undo, accepted right after its add, reverts that add, or is refused once a rebase put the
    /// other host's change after it; it is never re-targeted at the other host's change.
    @Test func anUndoNeverRevertsAnotherHostsChange() throws {
        let cluster = try SharedLogCluster(daemons: 2)
        defer { cluster.close() }
        let (a, b) = (cluster.daemons[0], cluster.daemons[1])
        let stop = Locked(false)
        let theirs = Locked<[String]>([])
        let other = Thread {
            guard let client = try? b.greetedClient() else { return }
            var n = 0
            while !stop.withLock({ $0 }) {
                n += 1
                guard let reply = try? client.dispatchAndWait("add", ["text": "theirs \(n)"]), reply.type == "ack"
                else { return }
                theirs.withLock { $0.append("theirs \(n)") }
            }
        }
        other.start()
        let client = try a.greetedClient()
        var undone = 0
        var refused: [Int] = []
        for round in 1...40 {
            let add = client.makeID()
            let undo = client.makeID()
            let replies = try client.pipeline([
                WireClient.dispatchMessage(id: add, "add", ["text": "mine \(round)"]),
                WireClient.dispatchMessage(id: undo, "undo", [:]),
            ])
            #expect(replies[add]?.type == "ack")
            if replies[undo]?.type == "ack" {
                undone += 1
            } else {
                let message = replies[undo]?["message"] as? String ?? ""
                #expect(
                    replies[undo]?.code == "rejected"
                        && message.hasPrefix(
                            "nothing was undone: the undo was for add \"mine \(round)\", but a newer change (add \"theirs "
                        ), "\(message)")
                refused.append(round)
            }
        }
        stop.withLock { $0 = true }
        try eventually("the other host's writer did not stop") { other.isFinished ? true : nil }
        let undos = try cluster.postgres.psql(
            "SELECT payload::json ->> 'undoing' FROM todod_log WHERE name = 'undo' ORDER BY version")
        #expect(undos.split(separator: "\n").allSatisfy { $0.hasPrefix("add \"mine ") }, "\(undos)")
        #expect(undos.split(separator: "\n").count == undone)
        let rows = try cluster.logRows()
        _ = try cluster.agreedList(atLeast: rows.count)
        let texts = try a.greetedClient().subscribeAndWait("list").update.itemTexts ?? []
        #expect(
            texts.filter { $0.hasPrefix("mine ") } == refused.map { "mine \($0)" },
            "an accepted undo reverted its own add; a refused one left it")
        #expect(
            texts.filter { $0.hasPrefix("theirs ") } == theirs.withLock { $0 }, "no change of the other host was undone"
        )
        #expect(undone + refused.count == 40 && undone > 0)
        print("undo while another host appends: \(undone) undone, \(refused.count) refused of 40")
    }

    /// A daemon joining a long log starts from the newest snapshot in the database.
    @Test func aDaemonJoiningLaterStartsFromTheSharedSnapshot() throws {
        let cluster = try SharedLogCluster(daemons: 1)
        defer { cluster.close() }
        let client = try cluster.daemons[0].greetedClient()
        var id = 0
        for _ in 0..<11 {
            let batch = (0..<100).map { n -> [String: Any] in
                id = client.makeID()
                return WireClient.dispatchMessage(id: id, "add", ["text": "item \(n)"])
            }
            #expect(try client.pipeline(batch).values.allSatisfy { $0.type == "ack" })
        }
        // The snapshot is encoded after its commit, beside the later ones, and saved after it.
        try eventually("no snapshot was saved") {
            try cluster.postgres.psql("SELECT count(*) > 0 FROM todod_snapshots WHERE version >= 1000") == "t"
                ? true : nil
        }
        let joined = try cluster.addDaemon()
        defer { _ = try? joined.stop() }
        let recovered =
            joined.process.standardError.split(separator: "\n").first { $0.contains("recovered version") }.map(
                String.init) ?? ""
        #expect(
            recovered.contains("recovered version 1100 from PostgreSQL") && recovered.contains("(snapshot at 1"),
            "\(recovered)")
        #expect(try SharedLogCluster.list(of: joined).version == 1100)
    }
}

/// This machine's host name, as the daemons record it.
private func hostName() throws -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, 255) == 0 else { throw TestFailure("gethostname failed") }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A small seeded generator, so a failing run can be repeated.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `--postgres` and `TODOD_POSTGRES` as the command line sees them, before any database.
@Suite(.blocking) struct SharedLogOptionTests {
    /// A connection string libpq cannot read is refused with the expected form, never with
    /// the part it could not read (which may be a password).
    @Test func anUnreadableConnectionStringIsRefusedWithoutQuotingIt() throws {
        let given: [([String], [String: String])] = [
            (["--postgres", "host=db passwordS3cr3t"], [:]), ([], ["TODOD_POSTGRES": "host=db passwordS3cr3t"]),
        ]
        for (options, variables) in given {
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let daemon = try ChildProcess(
                Binaries.path("todod"),
                ["--socket", directory + "/s.sock", "--data-dir", directory + "/data"] + options,
                environment: variables, outputDirectory: directory)
            #expect(try daemon.waitForExit() == 2)
            #expect(
                daemon.standardError.contains("the connection string is not valid: write key=value pairs"),
                "\(daemon.standardError)")
            #expect(!daemon.standardError.contains("S3cr3t"))
        }
    }
}
