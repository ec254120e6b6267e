import Foundation
import Glibc

/// Simulated hosts on one machine: a network namespace per host, joined to the root namespace
/// by a veth pair, so that a daemon started in one (`ip netns exec`) reaches the database over
/// TCP as on a real network, while its Unix socket (a path, not namespaced) stays reachable
/// from the bench.
///
/// ```
/// root namespace                                 namespace todo-bench-PID-N
///   PostgreSQL on 10.X.N.1 ── veth tbPIDhN ═══ tbPIDnN ── 10.X.N.2  todod
/// ```
/// Host N has the subnet 10.X.N.0/24; X is chosen so that no interface of the machine has an
/// address in 10.X.0.0/16. Needs root and `ip` (iproute2). `tearDown()` (and `deinit`, and an
/// interrupt) deletes the namespaces, which destroys the veth pairs with them.
final class HostNetwork {
    /// One simulated host.
    struct Host {
        /// The network namespace.
        var namespace: String
        /// The root namespace's end of the host's link: where the database listens for it.
        var databaseAddress: String
    }

    /// The hosts, in order.
    let hosts: [Host]
    /// The network of every host, for `pg_hba.conf`: `10.X.0.0/16`.
    let network: String
    private let ip: String
    private let directory: String
    private var interruptCleanup: InterruptCleanup.Token?
    private var tornDown = false

    /// Why no namespaces can be made here, or `nil` when they can be tried.
    static var unavailableReason: String? {
        if getuid() != 0 { return "not root (network namespaces need root)" }
        if Subprocess.findInPath("ip") == nil { return "ip (iproute2) is not on PATH" }
        return nil
    }

    /// Makes `count` hosts; on failure removes what it made and throws.
    init(count: Int, directory: String) throws(BenchError) {
        guard let ip = Subprocess.findInPath("ip") else { throw .missingProgram(name: "ip", looked: "$PATH") }
        self.ip = ip
        self.directory = directory
        let octet = try Self.unusedSecondOctet(ip: ip, directory: directory)
        network = "10.\(octet).0.0/16"
        let tag = "\(getpid())"
        hosts = (1...count).map { Host(namespace: "todo-bench-\(tag)-\($0)", databaseAddress: "10.\(octet).\($0).1") }
        let namespaces = hosts.map(\.namespace)
        let links = (1...count).map { "tb\(tag)h\($0)" }
        interruptCleanup = InterruptCleanup.register {
            Self.remove(namespaces: namespaces, links: links, ip: ip, directory: directory)
        }
        do {
            for (index, host) in hosts.enumerated() {
                let (outside, inside) = (links[index], "tb\(tag)n\(index + 1)")
                try run(["netns", "add", host.namespace])
                try run(["link", "add", outside, "type", "veth", "peer", "name", inside])
                try run(["link", "set", inside, "netns", host.namespace])
                try run(["addr", "add", host.databaseAddress + "/24", "dev", outside])
                try run(["link", "set", outside, "up"])
                try run(["-n", host.namespace, "addr", "add", "10.\(octet).\(index + 1).2/24", "dev", inside])
                try run(["-n", host.namespace, "link", "set", inside, "up"])
                try run(["-n", host.namespace, "link", "set", "lo", "up"])
            }
        } catch {
            tearDown()
            throw error
        }
    }

    deinit {
        tearDown()
    }

    /// The words that start a program in host `index`'s namespace.
    func launcher(host index: Int) -> [String] {
        [ip, "netns", "exec", hosts[index].namespace]
    }

    /// Deletes the namespaces (and with them the veth pairs). Safe to call more than once.
    func tearDown() {
        guard !tornDown else { return }
        tornDown = true
        Self.remove(
            namespaces: hosts.map(\.namespace), links: (1...hosts.count).map { "tb\(getpid())h\($0)" }, ip: ip,
            directory: directory)
        if let interruptCleanup { InterruptCleanup.unregister(interruptCleanup) }
    }

    private func run(_ arguments: [String]) throws(BenchError) {
        try Subprocess.run(ip, arguments, in: directory, timeout: 30)
    }

    /// Deletes what exists of `namespaces`, and of the root ends of `links` in case a link was
    /// made but not yet moved into its namespace.
    private static func remove(namespaces: [String], links: [String], ip: String, directory: String) {
        for namespace in namespaces where access("/run/netns/" + namespace, F_OK) == 0 {
            _ = try? Subprocess.run(ip, ["netns", "del", namespace], in: directory, timeout: 30)
        }
        for link in links where access("/sys/class/net/" + link, F_OK) == 0 {
            _ = try? Subprocess.run(ip, ["link", "del", link], in: directory, timeout: 30)
        }
    }

    /// A second octet X in 200–254 such that no interface has an address in 10.X.0.0/16.
    private static func unusedSecondOctet(ip: String, directory: String) throws(BenchError) -> Int {
        let addresses = try Subprocess.run(ip, ["-o", "-4", "addr", "show"], in: directory, timeout: 30)
        let used = Set(
            addresses.split(separator: " ").compactMap { word -> Int? in
                let parts = word.split(separator: ".")
                return parts.count == 4 && parts[0] == "10" ? Int(parts[1]) : nil
            })
        guard let free = (200...254).first(where: { !used.contains($0) }) else {
            throw .process(name: "ip", reason: "every network 10.200-254.0.0/16 is in use here")
        }
        return free
    }
}
