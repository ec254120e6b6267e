import SyncLock

extension FanOutFigure {
    /// The pub/sub channel.
    static let channel = "bench"

    /// How the subscribers' sockets are read.
    enum SubscriberReading {
        /// A thread per subscriber (as SyncClient reads on a thread per connection).
        case threadEach
        /// All of them by one thread with epoll (`SubscriberReader`).
        case oneThread
    }

    /// One Redis pub/sub run with `subscribers` subscribers read as `reading` says and `count`
    /// messages of 128 bytes.
    static func measureRedis(
        _ context: BenchContext, subscribers: Int, count: Int, periodNanoseconds: UInt64, reading: SubscriberReading
    ) async throws -> FanOutSample {
        let redis = try RedisServer(
            context, directory: try context.directory(reading == .oneThread ? "figure3-redis-epoll" : "figure3-redis"))
        var sockets: [RESPSocket] = []
        // A figure that fails half-way must not leave threads blocked on these sockets.
        defer { for socket in sockets { socket.stream.shutDown() } }
        for _ in 0..<subscribers {
            let socket = try RESPSocket(path: redis.socketPath)
            guard case .array(let parts?) = try socket.call(["SUBSCRIBE", channel]),
                parts.first == .bulk(Array("subscribe".utf8))
            else {
                throw BenchError.unexpectedReply(from: "redis-server", reply: "SUBSCRIBE was not confirmed")
            }
            sockets.append(socket)
        }
        let arrivals: [[Arrival]]
        let sentAt: [UInt64]
        switch reading {
        case .threadEach:
            let results = Locked([[Arrival]](repeating: [], count: subscribers))
            let failure = Locked<String?>(nil)
            var threads: [BenchThread] = []
            for (index, socket) in sockets.enumerated() {
                threads.append(
                    try BenchThread {
                        var received: [Arrival] = []
                        received.reserveCapacity(count + 1)
                        do {
                            while true {
                                let value = try socket.nextValue()
                                let at = MonotonicClock.now()
                                let key = try messageKey(value, count: count)
                                received.append(Arrival(key: key, at: at))
                                if key == UInt64(count) { break }
                            }
                        } catch {
                            failure.withLock { $0 = $0 ?? "subscriber \(index): \(error)" }
                        }
                        results.withLock { $0[index] = received }
                    })
            }
            sentAt = try await publishPaced(
                on: redis, subscribers: subscribers, count: count, periodNanoseconds: periodNanoseconds)
            for thread in threads { await thread.joinFromTask() }
            if let failure = failure.withLock({ $0 }) {
                throw BenchError.process(name: "figure 3 (Redis)", reason: failure)
            }
            arrivals = results.withLock { $0 }
        case .oneThread:
            let readSockets = sockets
            let reader = try SubscriberReader(
                descriptors: sockets.map { $0.stream.descriptor }, expectedPerSubscriber: count,
                deadlineSeconds: Double(count) * Double(periodNanoseconds) / 1e9 + 120,
                read: { index in try readSockets[index].valuesFromOneRead()?.map { try messageKey($0, count: count) } },
                isFinished: { $0 >= UInt64(count) })
            do {
                sentAt = try await publishPaced(
                    on: redis, subscribers: subscribers, count: count, periodNanoseconds: periodNanoseconds)
            } catch {
                reader.abandon(because: "the publisher failed")
                _ = try? await reader.finish()
                throw error
            }
            arrivals = try await reader.finish()
        }
        try redis.stop()
        return FanOutSample(
            sentAt: sentAt, keys: (0..<count).map { UInt64($0) }, arrivals: arrivals, warmUp: count / 10)
    }

    /// PUBLISHes `count` messages on a connection of its own, one per period (open loop), then
    /// the stop message; checks that every PUBLISH reached `subscribers`; returns the send times.
    private static func publishPaced(on redis: RedisServer, subscribers: Int, count: Int, periodNanoseconds: UInt64)
        async throws -> [UInt64]
    {
        let publisher = try RESPSocket(path: redis.socketPath)
        defer { publisher.stream.shutDown() }
        let commands = (0..<count).map { publishCommand(message(index: $0)) }
        let stop = publishCommand(Array(("stop" + String(repeating: " ", count: 124)).utf8))
        let fewestReceivers = Locked(Int.max)
        let sentAt = Locked([UInt64]())
        let failure = Locked<String?>(nil)
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
        if let failure = failure.withLock({ $0 }) {
            throw BenchError.process(name: "figure 3 (Redis)", reason: failure)
        }
        guard fewestReceivers.withLock({ $0 }) == subscribers else {
            throw BenchError.unexpectedReply(
                from: "redis-server",
                reply: "a PUBLISH reached \(fewestReceivers.withLock { $0 }) of \(subscribers) subscribers")
        }
        return sentAt.withLock { $0 }
    }

    /// The key of a pushed message: its sequence number, or `count` for the stop message.
    private static func messageKey(_ value: RESPValue, count: Int) throws(BenchError) -> UInt64 {
        guard case .array(let parts?) = value, parts.count == 3, case .bulk(let payload?) = parts[2] else {
            throw BenchError.unexpectedReply(from: "redis-server", reply: "\(value)")
        }
        return payload.starts(with: Array("stop".utf8)) ? UInt64(count) : sequenceNumber(payload)
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
