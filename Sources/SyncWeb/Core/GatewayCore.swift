import SyncProtocol

/// The gateway's decisions, without I/O: browsers' messages, the daemon's models and answers
/// in; messages to write and work for the daemon out. The server feeds it on its one thread
/// and performs its outputs; tests drive it directly.
///
/// A browser is never sent a backlog: its session only records the version it holds, and
/// `nextMessage(for:)` writes, when its socket can take it, a reply or the newest model of one
/// subscription (a patch from the version held when the feed still has it).
struct GatewayCore {
    /// The app's name, in `hello`.
    let app: String
    /// The view models a page may follow, by name.
    let viewModels: [String: WebViewModel]
    /// The action names a page may dispatch.
    let actions: Set<String>
    /// The bounds.
    let limits: WebLimits
    /// The most subscriptions one page holds.
    static let subscriptionsPerSession = 16
    /// The most distinct daemon subscriptions of the gateway.
    static let feedLimit = 1024

    private(set) var sessions: [SessionID: BrowserSession] = [:]
    private(set) var feeds: [FeedKey: ViewFeed] = [:]
    private(set) var daemonLive = true
    private(set) var daemonVersion: UInt64 = 0

    /// A core for `app`'s page with `allowlist` and `limits`.
    init(app: String, allowlist: WebAllowlist, limits: WebLimits) {
        self.app = app
        viewModels = allowlist.viewModels
        actions = Set(allowlist.actions.keys)
        self.limits = limits
    }

    /// Whether another browser may connect.
    var acceptsConnection: Bool { sessions.count < limits.connections }

    /// A browser connected: it is greeted.
    mutating func opened(_ id: SessionID) -> [GatewayOutput] {
        var session = BrowserSession(actionsPerSecond: limits.actionsPerSecond)
        session.replies.append(GatewayMessage.hello(app: app, daemonLive: daemonLive, version: daemonVersion).bytes)
        sessions[id] = session
        return [.wantWritable(id)]
    }

    /// A browser's connection is gone: it is forgotten (answers still due to it are dropped).
    mutating func closed(_ id: SessionID) {
        sessions[id] = nil
    }

    /// A piece of a browser's message arrived at `now` (milliseconds); `isLast` ends the message.
    mutating func received(_ id: SessionID, _ piece: [UInt8], isLast: Bool, now: UInt64) -> GatewayReception {
        guard var session = sessions[id] else { return .keep([]) }
        guard session.partial.count + piece.count <= limits.maximumMessageBytes else {
            return .close(code: 1009, reason: "message over \(limits.maximumMessageBytes) bytes")
        }
        session.partial += piece
        guard isLast else {
            sessions[id] = session
            return .keep([])
        }
        let message = session.partial
        session.partial = []
        var outputs: [GatewayOutput] = []
        do {
            try handle(BrowserRequest(decoding: message), of: id, in: &session, now: now, outputs: &outputs)
        } catch {
            session.replies.append(GatewayMessage.error(id: nil, code: "invalid_message", message: error.message).bytes)
        }
        guard session.replies.count <= limits.queuedReplies else {
            return .close(code: 1008, reason: "more than \(limits.queuedReplies) replies unread")
        }
        sessions[id] = session
        if !session.replies.isEmpty || isBehind(session) { outputs.append(.wantWritable(id)) }
        return .keep(outputs)
    }

    private mutating func handle(
        _ request: BrowserRequest, of id: SessionID, in session: inout BrowserSession, now: UInt64,
        outputs: inout [GatewayOutput]
    ) {
        switch request {
        case .subscribe(let key, let name, let params, let have):
            guard let viewModel = viewModels[name] else {
                return refuse(nil, "unknown_view_model", "The page may not follow \"\(name)\".", in: &session)
            }
            guard let canonical = viewModel.canonicalParams(params) else {
                return refuse(nil, "invalid_params", "The params do not fit \"\(name)\".", in: &session)
            }
            guard session.subscriptions[key] != nil || session.subscriptions.count < Self.subscriptionsPerSession
            else {
                return refuse(nil, "too_many_subscriptions", "A page follows at most 16 models.", in: &session)
            }
            let feed = FeedKey(viewModel: name, params: canonical)
            if feeds[feed] == nil {
                guard feeds.count < Self.feedLimit else {
                    return refuse(nil, "too_many_subscriptions", "The gateway follows too many models.", in: &session)
                }
                feeds[feed] = ViewFeed(keep: limits.resumableVersions)
                outputs.append(.follow(feed))
            }
            let held = have.flatMap { feeds[feed]!.canResume(from: $0) ? $0 : nil }
            session.subscriptions[key] = BrowserSession.Subscription(feed: feed, held: held)
        case .unsubscribe(let key):
            session.subscriptions[key] = nil
        case .dispatch(let requestID, let action, let payload):
            guard actions.contains(action) else {
                return refuse(requestID, "unknown_action", "The page may not dispatch \"\(action)\".", in: &session)
            }
            guard session.inFlight < limits.actionsInFlight else {
                return refuse(
                    requestID, "too_many_in_flight", "Wait for an answer: \(limits.actionsInFlight) are on their way.",
                    in: &session)
            }
            guard session.rate.admit(at: now) else {
                return refuse(
                    requestID, "rate_limited", "More than \(limits.actionsPerSecond) actions in a second.",
                    in: &session)
            }
            session.inFlight += 1
            outputs.append(.dispatch(id, requestID: requestID, action: action, payload: payload))
        }
    }

    private func refuse(_ id: Int64?, _ code: String, _ message: String, in session: inout BrowserSession) {
        session.replies.append(GatewayMessage.error(id: id, code: code, message: message).bytes)
    }

    /// The daemon answered a browser's dispatch.
    mutating func answered(_ id: SessionID, requestID: Int64, _ answer: DispatchAnswer) -> [GatewayOutput] {
        guard var session = sessions[id] else { return [] }
        session.inFlight -= 1
        switch answer {
        case .applied(let version):
            session.replies.append(GatewayMessage.ack(id: requestID, version: version).bytes)
        case .refused(let code, let message):
            session.replies.append(GatewayMessage.error(id: requestID, code: code, message: message).bytes)
        }
        sessions[id] = session
        return [.wantWritable(id)]
    }

    /// The daemon sent a model of `feed`: every browser following it wants to be written to.
    mutating func modelArrived(_ feed: FeedKey, version: UInt64, model: JSONValue) -> [GatewayOutput] {
        feeds[feed]?.receive(version: version, model: model)
        daemonVersion = max(daemonVersion, version)
        return sessions.compactMap { id, session in
            session.subscriptions.values.contains { $0.feed == feed } ? .wantWritable(id) : nil
        }
    }

    /// The connection to the daemon was lost (`live` false) or made again.
    mutating func daemonChanged(live: Bool, version: UInt64?) -> [GatewayOutput] {
        guard live != daemonLive else { return [] }
        daemonLive = live
        if let version { daemonVersion = max(daemonVersion, version) }
        let notice = GatewayMessage.daemon(live: live, version: version).bytes
        for id in sessions.keys { sessions[id]!.replies.append(notice) }
        return sessions.keys.map { .wantWritable($0) }
    }

    /// The next message for browser `id`, whose socket can take one, and whether more wait.
    mutating func nextMessage(for id: SessionID) -> (message: [UInt8], more: Bool)? {
        guard var session = sessions[id] else { return nil }
        var message: [UInt8]?
        if !session.replies.isEmpty {
            message = session.replies.removeFirst()
        } else {
            for (key, subscription) in session.subscriptions.sorted(by: { $0.key < $1.key }) {
                guard let delta = feeds[subscription.feed]?.delta(from: subscription.held) else { continue }
                message = GatewayMessage.update(key: key, version: delta.version, base: delta.base, body: delta.body)
                session.subscriptions[key]!.held = delta.version
                break
            }
        }
        sessions[id] = session
        guard let message else { return nil }
        return (message, !session.replies.isEmpty || isBehind(session))
    }

    /// The browsers with a reply or a newer model due.
    var pending: [SessionID] {
        sessions.compactMap { id, session in !session.replies.isEmpty || isBehind(session) ? id : nil }
    }

    private func isBehind(_ session: BrowserSession) -> Bool {
        session.subscriptions.values.contains { subscription in
            guard let newest = feeds[subscription.feed]?.newest else { return false }
            return subscription.held != newest.version
        }
    }
}
