import SyncClient
import SyncLock

/// The gateway's side of the daemon: one `SyncClient`, a task per followed view model (kept
/// until the gateway stops) and per dispatch (ending with its answer), each posting what it learns to the gateway's inbox. Blocking work stays off the
/// gateway's thread, and the thread never waits for the daemon.
final class DaemonBridge: Sendable {
    private let client: SyncClient
    private let allowlist: WebAllowlist
    private let inbox: GatewayInbox
    private let tasks = Locked<[Task<Void, Never>]>([])

    /// A bridge through `client` for `allowlist`'s names, posting to `inbox`.
    init(client: SyncClient, allowlist: WebAllowlist, inbox: GatewayInbox) {
        self.client = client
        self.allowlist = allowlist
        self.inbox = inbox
    }

    /// Reports the daemon connection's state changes.
    func watchConnection() {
        start { [client, inbox] in
            for await state in client.connectionStates() {
                switch state {
                case .connected(let version): inbox.post(.daemon(live: true, version: version))
                case .reconnecting, .closed: inbox.post(.daemon(live: false, version: nil))
                }
            }
        }
    }

    /// Follows `feed` in the daemon until the gateway stops.
    func follow(_ feed: FeedKey) {
        guard let viewModel = allowlist.viewModels[feed.viewModel] else { return }
        start { [client, inbox] in
            try? await viewModel.follow(client, feed.params) { version, model in
                inbox.post(.model(feed, version: version, model: model))
            }
        }
    }

    /// Dispatches `action` for a browser and posts the answer.
    func dispatch(_ session: SessionID, requestID: Int64, action name: String, payload: [UInt8]) {
        guard let action = allowlist.actions[name] else { return }
        Task { [client, inbox] in
            let answer: DispatchAnswer
            do throws(WebActionError) {
                answer = .applied(version: try await action.dispatch(client, payload))
            } catch .invalidPayload(let message) {
                answer = .refused(code: "invalid_payload", message: message)
            } catch .daemon(.server(let code, let message)) {
                answer = .refused(code: code, message: message)
            } catch .daemon(let error) {
                answer = .refused(code: "unavailable", message: error.description)
            }
            inbox.post(.answered(session, requestID: requestID, answer))
        }
    }

    /// Cancels the tasks that follow the daemon (a dispatch's task ends with its answer).
    func stop() {
        let running = tasks.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in running { task.cancel() }
    }

    private func start(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        tasks.withLock { $0.append(task) }
    }
}
