import SyncLock
import SyncProtocol
import TodoDomain

/// Figure 13: fan-out through the web gateway. The toggles of figure 3, one per period, to a
/// list followed by WebSocket subscribers of `todo web` (one daemon subscription, shared),
/// from the dispatch's write to each WebSocket having the update; beside figure 3's raw
/// subscribers of the daemon, measured again in this run: the gateway's own cost.
enum GatewayFanOutFigure {
    /// Measures the figure (starting and stopping its own daemons and gateway) and returns
    /// its rows.
    static func run(_ context: BenchContext) async throws -> FigureReport {
        let options = context.options
        let count = max(10, Int(options.fanOutSeconds * 1000) / options.fanOutPeriodMs)
        let period = UInt64(options.fanOutPeriodMs) * 1_000_000
        let subscribers = options.redisSubscribers
        var report = FigureReport(
            figure: 13, title: "Fan-out through the web gateway at one dispatch every \(options.fanOutPeriodMs) ms")
        context.progress(
            "figure 13: \(count) toggles, one every \(options.fanOutPeriodMs) ms, to \(subscribers) WebSocket subscribers of list through todo web"
        )
        let web = try await measureGateway(context, subscribers: subscribers, count: count, periodNanoseconds: period)
        context.progress(
            "figure 13: the same toggles to \(subscribers) raw subscribers of summary (figure 3's), read by one thread")
        let raw = try await FanOutFigure.measureTododRaw(
            context, subscribers: subscribers, count: count, periodNanoseconds: period, round: 0)
        report.rows = [
            .absolute(
                "p50, \(subscribers) gateway WebSocket subscribers", unit: "ms", ours: web.latency.p50, atMost: nil),
            .absolute(
                "p99, \(subscribers) gateway WebSocket subscribers", unit: "ms", ours: web.latency.p99, atMost: nil),
            .absolute("p50, \(subscribers) raw subscribers of todod", unit: "ms", ours: raw.latency.p50, atMost: nil),
            .absolute("p99, \(subscribers) raw subscribers of todod", unit: "ms", ours: raw.latency.p99, atMost: nil),
            .relative(
                "p99, gateway over raw subscribers", unit: "ms", ours: web.latency.p99, baseline: raw.latency.p99,
                baselineName: "raw subscribers", targetRatio: nil),
        ]
        report.tails = [
            LatencyTail("gateway, \(subscribers) WebSocket subscribers", web.latency),
            LatencyTail("todod, \(subscribers) raw subscribers", raw.latency),
        ]
        for (name, sample) in [("gateway\(subscribers)", web), ("todod\(subscribers)Raw", raw)] {
            report.details["\(name)P90Ms"] = sample.latency.p90
            report.details["\(name)MaxMs"] = sample.latency.max
            report.details["\(name)ReceivedFraction"] = sample.receivedFraction
            report.details["\(name)Unseen"] = Double(sample.unseen)
        }
        report.notes = [
            "Gateway: todod with a list of one item; `todo web --listen 127.0.0.1:0` (one SyncClient subscription to list, shared by every browser); \(subscribers) WebSocket connections signed in with the session cookie and subscribed to list with the page protocol, all read by ONE bench thread with epoll, each update's version read from its text. A raw connection writes one toggle every \(options.fanOutPeriodMs) ms (\(count) in all) without waiting for acks, then an add that ends the run. The latency of a dispatch at a subscriber ends at the first update whose version is at least the dispatch's; the first 10% are not measured.",
            "Raw subscribers: figure 3's, measured again here with the same toggles: \(subscribers) raw connections subscribed to summary, read by one thread. The gateway's cost is the difference: its SyncClient's decoding of each model, its patch from the version before, and \(subscribers) WebSocket writes.",
            "ReceivedFraction < 1: the gateway, like the daemon, sends a browser that has not taken its previous update only the newest model.",
        ]
        return report
    }

    /// One run: a daemon, a gateway in front of it, `subscribers` WebSockets following list.
    private static func measureGateway(
        _ context: BenchContext, subscribers: Int, count: Int, periodNanoseconds: UInt64
    ) async throws -> FanOutSample {
        let directory = try context.directory("figure13-gateway-\(subscribers)")
        let daemon = try TodoDaemon(context, directory: directory)
        try daemon.addItems(1)
        let gateway = try TodoWebGateway(context, daemon: daemon, directory: directory)
        let cookie = try GatewaySocket.signIn(port: gateway.port, token: gateway.token)
        var sockets: [GatewaySocket] = []
        for _ in 0..<subscribers {
            let socket = try GatewaySocket(port: gateway.port, cookie: cookie)
            try socket.send(text: #"{"type":"subscribe","key":"list","viewModel":"list","params":{}}"#)
            // The first model, before the toggles: what follows is the changes.
            while try socket.updateVersionsFromOneRead()?.isEmpty ?? true {}
            sockets.append(socket)
        }
        let stop = FrameEncoder.frame(
            FrameSocket.encode {
                try DispatchRequest(id: Int64(count + 1), actionName: AddItem.wireName).encoded(
                    payload: AddItem(text: "stop"))
            })
        let lastVersion = Locked<UInt64?>(nil)
        let readSockets = sockets
        let reader = try SubscriberReader(
            descriptors: sockets.map(\.descriptor), expectedPerSubscriber: count,
            deadlineSeconds: Double(count) * Double(periodNanoseconds) / 1e9 + 120,
            read: { index in try readSockets[index].updateVersionsFromOneRead() },
            isFinished: { newest in lastVersion.withLock { $0.map { newest >= $0 } ?? false } })
        let paced: (sentAt: [UInt64], versions: [UInt64])
        do {
            paced = try await FanOutFigure.dispatchPaced(
                on: daemon, frames: FanOutFigure.toggleFrames(count: count), stop: stop,
                periodNanoseconds: periodNanoseconds)
        } catch {
            reader.abandon(because: "the publisher failed")
            _ = try? await reader.finish()
            throw error
        }
        lastVersion.withLock { $0 = paced.versions[count] }
        let arrivals = try await reader.finish()
        sockets = []
        try gateway.stop()
        try daemon.stop()
        return FanOutSample(
            sentAt: paced.sentAt, keys: Array(paced.versions.prefix(count)), arrivals: arrivals, warmUp: count / 10)
    }
}
