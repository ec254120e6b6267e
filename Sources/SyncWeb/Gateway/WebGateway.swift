import Glibc
import SyncClient

/// A web front for any app: serves the app's page over HTTP and its live view models over
/// WebSocket, as a client of the app's daemon through `SyncClient`. Only what the allowlist
/// names passes; see docs/WEB.md for the page protocol and the threat model.
///
/// `start` listens at once and returns; the gateway serves on its own thread until `stop()`.
public final class WebGateway: Sendable {
    /// The URL to open, with the one-time token (`http://127.0.0.1:8765/?token=…`).
    public let url: String
    /// The address listened on, with the port chosen for `:0`.
    public let address: ListenAddress
    private let inbox: GatewayInbox
    private let bridge: DaemonBridge
    private let done: ThreadExit

    /// Starts serving `configuration`'s page for the daemon `client` is connected to.
    public static func start(_ configuration: WebGatewayConfiguration, client: SyncClient)
        throws(WebGatewayError) -> WebGateway
    {
        let inbox = GatewayInbox()
        let bridge = DaemonBridge(client: client, allowlist: configuration.allowlist, inbox: inbox)
        let server = try WebServer(configuration, bridge: bridge, inbox: inbox)
        let address = ListenAddress(host: configuration.listen.host, port: server.port)
        let url = "http://\(address)/?token=\(server.token)"
        let done = try ThreadExit.run(handingOver: server) { $0.serve() }
        bridge.watchConnection()
        return WebGateway(url: url, address: address, inbox: inbox, bridge: bridge, done: done)
    }

    private init(url: String, address: ListenAddress, inbox: GatewayInbox, bridge: DaemonBridge, done: ThreadExit) {
        self.url = url
        self.address = address
        self.inbox = inbox
        self.bridge = bridge
        self.done = done
    }

    /// Stops serving: browsers' connections close, the daemon's subscriptions end.
    public func stop() {
        bridge.stop()
        inbox.post(.stop)
    }

    /// Returns once the gateway stopped.
    public func finished() async {
        await done.wait()
    }
}
