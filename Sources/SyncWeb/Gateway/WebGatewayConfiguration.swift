import SyncStore

/// Everything a gateway is made of: the app, what its page may do, the page, where to listen
/// and the bounds it keeps.
public struct WebGatewayConfiguration: Sendable {
    /// The app whose daemon the gateway is a client of.
    public var identity: AppIdentity
    /// What the page may subscribe to and dispatch.
    public var allowlist: WebAllowlist
    /// The page's static files.
    public var page: WebPage
    /// Where to listen.
    public var listen: ListenAddress
    /// Origins (`https://todo.example.com`) a reverse proxy serves the page from, besides the
    /// listening address itself; their host is accepted in `Host` too.
    public var publicOrigins: [String]
    /// The bounds per browser and in all.
    public var limits: WebLimits

    /// A configuration with every part given; `publicOrigins` empty and the default limits
    /// unless said.
    public init(
        identity: AppIdentity, allowlist: WebAllowlist, page: WebPage, listen: ListenAddress = .standard,
        publicOrigins: [String] = [], limits: WebLimits = WebLimits()
    ) {
        self.identity = identity
        self.allowlist = allowlist
        self.page = page
        self.listen = listen
        self.publicOrigins = publicOrigins
        self.limits = limits
    }
}
