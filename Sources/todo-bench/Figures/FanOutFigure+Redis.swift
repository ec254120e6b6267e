import SyncLock

extension FanOutFigure {
    /// The pub/sub channel.
    static let channel = "bench"

    /// One Redis pub/sub run with `subscribers` subscribers and `count` messages of 128 bytes.
    static func measureRedis(_ context: BenchContext, subscribers: Int, count: Int, periodNanoseconds: UInt64)
        async throws -> FanOutSample
    {
        let redis = try RedisServer(context, directory: try context.directory("figure3-redis"))
        let results = Locked([[Arrival]](repeating: [], count: subscribers))
        let failure = Locked<String?>(nil)
        let stopPrefix = Array("stop".utf8)
        var threads: [BenchThread] = []
        var sockets: [RESPSocket] = []
        // A figure that fails half-way must not leave threads blocked on these sockets.
        defer { for socket in sockets { socket.stream.shutDown() } }
        for index in 0..<subscribers {
            let socket = try RESPSocket(path: redis.socketPath)
            guard case .array(let parts?) = try socket.call(["SUBSCRIBE", channel]),
                parts.first == .bulk(Array("subscribe".utf8))
            else {
                throw BenchError.unexpectedReply(from: "redis-server", reply: "SUBSCRIBE was not confirmed")
            }
            sockets.append(socket)
            threads.append(
                try BenchThread {
                    var arrivals: [Arrival] = []
                    arrivals.reserveCapacity(count + 1)
                    do {
                        while true {
                            let value = try socket.nextValue()
                            let at = MonotonicClock.now()
                            guard case .array(let parts?) = value, parts.count == 3, case .bulk(let payload?) = parts[2]
                            else {
                                throw BenchError.unexpectedReply(from: "redis-server", reply: "\(value)")
                            }
                            if payload.starts(with: stopPrefix) {
                                arrivals.append(Arrival(key: UInt64(count), at: at))
                                break
                            }
                            arrivals.append(Arrival(key: sequenceNumber(payload), at: at))
                        }
                    } catch {
                        failure.withLock { $0 = $0 ?? "subscriber \(index): \(error)" }
                    }
                    results.withLock { $0[index] = arrivals }
                })
        }

        let publisher = try RESPSocket(path: redis.socketPath)
        defer { publisher.stream.shutDown() }
        let commands = (0..<count).map { publishCommand(message(index: $0)) }
        let stop = publishCommand(Array(("stop" + String(repeating: " ", count: 124)).utf8))
        let fewestReceivers = Locked(Int.max)
        let sentAt = Locked([UInt64]())
        let reader = try BenchThread {
            do {
                for _ in 0...count {
                    guard case .integer(let receivers) = try publisher.nextValue() else {
                        throw BenchError.unexpectedReply(
                            from: "redis-server", reply: "PUBLISH did not answer an integer")
                    }
                    fewestReceivers.withLock { $0 = min($0, receivers) }
                }
            } catch {
                failure.withLock { $0 = $0 ?? "publisher's replies: \(error)" }
            }
        }
        let pacer = try startPacer(
            count: count, periodNanoseconds: periodNanoseconds, sentAt: sentAt, failure: failure,
            send: { index in try publisher.send(raw: commands[index]) }, sendStop: { try publisher.send(raw: stop) },
            shutDown: { publisher.stream.shutDown() })
        await pacer.joinFromTask()
        await reader.joinFromTask()
        for thread in threads { await thread.joinFromTask() }
        if let failure = failure.withLock({ $0 }) {
            throw BenchError.process(name: "figure 3 (Redis)", reason: failure)
        }
        guard fewestReceivers.withLock({ $0 }) == subscribers else {
            throw BenchError.unexpectedReply(
                from: "redis-server",
                reply: "a PUBLISH reached \(fewestReceivers.withLock { $0 }) of \(subscribers) subscribers")
        }
        try redis.stop()
        return FanOutSample(
            sentAt: sentAt.withLock { $0 }, keys: (0..<count).map { UInt64($0) }, arrivals: results.withLock { $0 },
            warmUp: count / 10)
    }

    /// Message `index`: its sequence number in 10 digits, then padding to 128 bytes.
    private static func message(index: Int) -> [UInt8] {
        let digits = String(index)
        return Array(
            (String(repeating: "0", count: 10 - digits.count) + digits + String(repeating: " ", count: 118)).utf8)
    }

    private static func publishCommand(_ message: [UInt8]) -> [UInt8] {
        RESPSocket.command([Array("PUBLISH".utf8), Array(channel.utf8), message])
    }

    /// The sequence number in a message's first 10 bytes.
    private static func sequenceNumber(_ payload: [UInt8]) -> UInt64 {
        payload.prefix(10).reduce(0) { $0 * 10 + UInt64($1 &- UInt8(ascii: "0")) }
    }
}
