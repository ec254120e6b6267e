import SyncLock
import SyncProtocol
import SyncStore
import TodoDomain

extension FanOutFigure {
    /// One todod fan-out run with `subscribers` raw subscribers of `summary`, all read by one
    /// thread with epoll (`SubscriberReader`), and `count` toggles: the daemon's cost without a
    /// client library's.
    static func measureTododRaw(
        _ context: BenchContext, subscribers: Int, count: Int, periodNanoseconds: UInt64, round: Int
    ) async throws -> FanOutSample {
        let daemon = try TodoDaemon(
            context, directory: try context.directory("figure3-todod-raw-\(subscribers)-round\(round)"))
        try daemon.addItems(1)
        var sockets: [FrameSocket] = []
        // A figure that fails half-way must not leave the reader waiting on these sockets.
        defer { for socket in sockets { socket.stream.shutDown() } }
        for _ in 0..<subscribers {
            let socket = try daemon.rawConnection()
            _ = try socket.subscribe(viewModel: SummaryViewModel.wireName, params: NoParams())
            sockets.append(socket)
        }
        // The last dispatch adds an item: it changes the summary whatever the toggles before it
        // did (a complete and a reopen committed together leave the summary as it was).
        let stop = FrameEncoder.frame(
            FrameSocket.encode {
                try DispatchRequest(id: Int64(count + 1), actionName: AddItem.wireName).encoded(
                    payload: AddItem(text: "stop"))
            })
        let lastVersion = Locked<UInt64?>(nil)
        let readSockets = sockets
        let reader = try SubscriberReader(
            descriptors: sockets.map { $0.stream.descriptor }, expectedPerSubscriber: count,
            deadlineSeconds: Double(count) * Double(periodNanoseconds) / 1e9 + 120,
            read: { index in
                try readSockets[index].framesFromOneRead()?.compactMap { frame throws(BenchError) in
                    try UpdateFrame.version(of: frame)
                }
            },
            isFinished: { newest in lastVersion.withLock { $0.map { newest >= $0 } ?? false } })
        let paced: (sentAt: [UInt64], versions: [UInt64])
        do {
            paced = try await dispatchPaced(
                on: daemon, frames: toggleFrames(count: count), stop: stop, periodNanoseconds: periodNanoseconds)
        } catch {
            reader.abandon(because: "the publisher failed")
            _ = try? await reader.finish()
            throw error
        }
        lastVersion.withLock { $0 = paced.versions[count] }
        let arrivals = try await reader.finish()
        try daemon.stop()
        return FanOutSample(
            sentAt: paced.sentAt, keys: Array(paced.versions.prefix(count)), arrivals: arrivals, warmUp: count / 10)
    }
}
