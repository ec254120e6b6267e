import Glibc
import ProcessSpawn

/// The benchmark's simulated hosts (`SimulatedHosts`, a network namespace each), deleted
/// on an interrupt too.
final class HostNetwork {
    private let hostsMade: SimulatedHosts
    private var interruptCleanup: InterruptCleanup.Token?

    /// The hosts, in order.
    var hosts: [SimulatedHosts.Host] { hostsMade.hosts }
    /// The network of every host, for `pg_hba.conf`.
    var network: String { hostsMade.network }

    /// Why no namespaces can be made here, or `nil` when they can be tried.
    static var unavailableReason: String? { SimulatedHosts.unavailableReason }

    /// Makes `count` hosts; on failure removes what it made and throws.
    init(count: Int, directory: String) throws(BenchError) {
        let tag = "tb\(getpid())"
        let (namespaces, links) = SimulatedHosts.names(count: count, tag: tag)
        let ip = SimulatedHosts.ipPath ?? "ip"
        interruptCleanup = InterruptCleanup.register {
            SimulatedHosts.remove(namespaces: namespaces, links: links, ip: ip, directory: directory)
        }
        do {
            hostsMade = try SimulatedHosts(count: count, tag: tag, directory: directory)
        } catch {
            if let interruptCleanup { InterruptCleanup.unregister(interruptCleanup) }
            throw .process(name: "ip", reason: error.description)
        }
    }

    deinit {
        tearDown()
    }

    /// The words that start a program in host `index`'s namespace.
    func launcher(host index: Int) -> [String] {
        hostsMade.launcher(host: index)
    }

    /// Deletes the namespaces (and with them the veth pairs). Safe to call more than once.
    func tearDown() {
        hostsMade.tearDown()
        if let interruptCleanup { InterruptCleanup.unregister(interruptCleanup) }
        interruptCleanup = nil
    }
}
