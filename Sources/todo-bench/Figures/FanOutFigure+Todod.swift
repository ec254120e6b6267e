import SyncClient
import SyncLock
import SyncProtocol
import TodoDomain

extension FanOutFigure {
    /// The text that tells subscribers the run is over (the last dispatch sets it).
    static let stopText = "stop"

    /// One todod fan-out run with `subscribers` SyncClient subscribers and `count` toggles.
    static func measureTodod(_ context: BenchContext, subscribers: Int, count: Int, periodNanoseconds: UInt64)
        async throws -> FanOutSample
    {
        let daemon = try TodoDaemon(context, directory: try context.directory("figure3-todod-\(subscribers)"))
        let setup = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "todo-bench/3")
        _ = try await setup.dispatch(AddItem(text: itemText()))
        setup.close()

        let ready = Locked(0)
        let finished = Locked(0)
        var clients: [SyncClient] = []
        var consumers: [Task<[Arrival], any Error>] = []
        for _ in 0..<subscribers {
            let client = try await SyncClient.connect(socketPath: daemon.socketPath, clientName: "todo-bench/3")
            clients.append(client)
            let updates = client.subscribe(ListViewModel.self, params: .init())
            consumers.append(
                Task(executorPreference: client.executor) {
                    defer { finished.withLock { $0 += 1 } }
                    var arrivals: [Arrival] = []
                    arrivals.reserveCapacity(count + 1)
                    var first = true
                    for try await update in updates {
                        let at = MonotonicClock.now()
                        if first {
                            first = false
                            ready.withLock { $0 += 1 }
                            continue
                        }
                        arrivals.append(Arrival(key: update.version, at: at))
                        if update.model?.items.first?.text == stopText { break }
                    }
                    return arrivals
                })
        }
        defer { for client in clients { client.close() } }
        try await MonotonicClock.pollFromTask("\(subscribers) subscribers to receive their first model", timeout: 120) {
            ready.withLock { $0 } == subscribers
        }

        let stop = FrameEncoder.frame(
            FrameSocket.encode {
                try DispatchRequest(id: Int64(count + 1), actionName: EditItem.wireName).encoded(
                    payload: EditItem(number: 1, text: stopText))
            })
        let (sentAt, versions) = try await dispatchPaced(
            on: daemon, frames: toggleFrames(count: count), stop: stop, periodNanoseconds: periodNanoseconds)
        try await MonotonicClock.pollFromTask("\(subscribers) subscribers to see the last model", timeout: 120) {
            finished.withLock { $0 } == subscribers
        }
        var arrivals: [[Arrival]] = []
        for consumer in consumers { arrivals.append(try await consumer.value) }
        for client in clients { client.close() }
        try daemon.stop()

        return FanOutSample(sentAt: sentAt, keys: Array(versions.prefix(count)), arrivals: arrivals, warmUp: count / 10)
    }

    /// The framed toggles of item 1 (complete, reopen, ...), request ids 1 to `count`.
    static func toggleFrames(count: Int) -> [[UInt8]] {
        (0..<count).map { index in
            let payload = FrameSocket.encode {
                index % 2 == 0
                    ? try DispatchRequest(id: Int64(index + 1), actionName: CompleteItem.wireName).encoded(
                        payload: CompleteItem(number: 1))
                    : try DispatchRequest(id: Int64(index + 1), actionName: ReopenItem.wireName).encoded(
                        payload: ReopenItem(number: 1))
            }
            return FrameEncoder.frame(payload)
        }
    }

    /// Writes `frames` on a raw connection of its own, one per period (open loop, no waiting
    /// for acks), then `stop` (request id `frames.count + 1`); a thread reads the acks. Returns
    /// the send times and the version each dispatch's ack named (the stop's last).
    static func dispatchPaced(on daemon: TodoDaemon, frames: [[UInt8]], stop: [UInt8], periodNanoseconds: UInt64)
        async throws -> (sentAt: [UInt64], versions: [UInt64])
    {
        let count = frames.count
        let publisher = try daemon.rawConnection()
        // A figure that fails half-way must not leave threads blocked on this socket.
        defer { publisher.stream.shutDown() }
        let versions = Locked([UInt64](repeating: 0, count: count + 1))
        let sentAt = Locked([UInt64]())
        let failure = Locked<String?>(nil)
        let reader = try BenchThread {
            do {
                for _ in 0...count {
                    let reply = try publisher.nextReply()
                    guard case .ack(let id, let version) = reply, (1...Int64(count + 1)).contains(id) else {
                        throw BenchError.unexpectedReply(from: "todod", reply: FrameSocket.describe(reply))
                    }
                    versions.withLock { $0[Int(id - 1)] = version }
                }
            } catch {
                failure.withLock { $0 = $0 ?? "publisher's acks: \(error)" }
            }
        }
        let pacer = try startPacer(
            count: count, periodNanoseconds: periodNanoseconds, sentAt: sentAt, failure: failure,
            send: { index in try publisher.send(framed: frames[index]) },
            sendStop: { try publisher.send(framed: stop) },
            shutDown: { publisher.stream.shutDown() })
        await pacer.joinFromTask()
        await reader.joinFromTask()
        if let failure = failure.withLock({ $0 }) {
            throw BenchError.process(name: "figure 3 (todod)", reason: failure)
        }
        return (sentAt.withLock { $0 }, versions.withLock { $0 })
    }
}
