import Glibc

/// What the shared-log figures (8 to 10) run on: one private PostgreSQL server, and up to
/// `hostCount` simulated hosts whose daemons reach it over TCP (`HostNetwork`). Without
/// network namespaces (not root, no `ip`, or making them failed) every daemon uses the
/// server's Unix socket instead, and `transport` says so and why.
///
/// Made once per run, when the first of those figures starts; each figure makes databases of
/// its own on it, so each starts on an empty log.
final class SharedLogLab {
    /// How many hosts figures may use.
    static let hostCount = 3

    /// The server.
    let server: PostgresServer
    /// The simulated hosts, or `nil` when the daemons use the Unix socket.
    let network: HostNetwork?
    /// How the daemons reach the database, in words, for the report.
    let transport: String

    /// Makes the hosts (if it can), then starts the server in `directory` listening on their
    /// side of each link.
    init(directory: String, progress: (String) -> Void) throws(BenchError) {
        var network: HostNetwork?
        var transport: String
        if let reason = HostNetwork.unavailableReason {
            transport = "Unix socket (no network namespaces: \(reason))"
        } else {
            do {
                network = try HostNetwork(count: Self.hostCount, directory: directory)
                transport = "TCP from \(Self.hostCount) network namespaces over veth pairs (\(network!.network))"
            } catch {
                transport = "Unix socket (making network namespaces failed: \(error))"
            }
        }
        progress("shared log: PostgreSQL in \(directory)/server, daemons reach it by \(transport)")
        self.network = network
        self.transport = transport
        server = try PostgresServer(
            directory: directory + "/server", listenAddresses: network?.hosts.map(\.databaseAddress) ?? [],
            trustedNetwork: network?.network)
    }

    /// Makes a new database `name` (one figure's log).
    func createDatabase(_ name: String) throws(BenchError) {
        try server.sql("CREATE DATABASE \(name)")
    }

    /// The conninfo a daemon on host `host` (0-based) uses for `database`.
    func conninfo(database: String, host: Int) -> String {
        server.conninfo(database: database, address: network?.hosts[host].databaseAddress)
    }

    /// Starts a daemon on host `host` (0-based) on the log in `database`, in `directory`.
    func startDaemon(_ context: BenchContext, host: Int, database: String, directory: String) throws(BenchError)
        -> TodoDaemon
    {
        try TodoDaemon(
            context, directory: directory, extraArguments: ["--postgres", conninfo(database: database, host: host)],
            launcher: network?.launcher(host: host) ?? [])
    }

    /// Stops the server, then deletes the hosts.
    func stop() {
        server.stop()
        network?.tearDown()
    }
}
