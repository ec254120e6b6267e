import Glibc

/// Simulated hosts on one machine, for the benchmark and the fault tests: a network namespace
/// per host, joined to the root namespace by a veth pair, so that a daemon started in one
/// (`launcher(host:)`) reaches a database in the root namespace over TCP as on a real network,
/// while its Unix socket (a path, not namespaced) stays reachable from outside.
///
/// ```
/// root namespace                              namespace TAG-N
///   database on 10.X.N.1 ── veth TAGhN ═══ TAGnN ── 10.X.N.2  daemon
/// ```
/// Host N has the subnet 10.X.N.0/24; X is chosen so that no interface of the machine has an
/// address in 10.X.0.0/16. `cut(host:)` takes the host's link down (silent, both ways: a
/// partition); `heal(host:)` brings it back. Needs root and `ip` (iproute2). `tearDown()`
/// (and `deinit`) deletes the namespaces, which destroys the veth pairs with them.
public final class SimulatedHosts {
    /// One simulated host.
    public struct Host: Sendable {
        /// The network namespace.
        public var namespace: String
        /// The root namespace's end of the host's link: where the database listens for it.
        public var databaseAddress: String
        /// The name of the link's end in the root namespace.
        public var link: String
    }

    /// Why the hosts could not be made or changed: the `ip` command and what it said.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The hosts, in order.
    public let hosts: [Host]
    /// The network of every host, for `pg_hba.conf`: `10.X.0.0/16`.
    public let network: String
    private let ip: String
    private let directory: String
    private var tornDown = false

    /// Where `ip` is, or `nil`.
    public static var ipPath: String? {
        ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { access($0, X_OK) == 0 }
    }

    /// Why no namespaces can be made here, or `nil` when they can be tried.
    public static var unavailableReason: String? {
        if getuid() != 0 { return "not root (network namespaces need root)" }
        if ipPath == nil { return "ip (iproute2) is not installed" }
        return nil
    }

    /// The namespace and link names of `count` hosts made with `tag`, for a cleanup that must
    /// not touch the object (an interrupt handler).
    public static func names(count: Int, tag: String) -> (namespaces: [String], links: [String]) {
        ((1...count).map { "\(tag)-\($0)" }, (1...count).map { "\(tag)h\($0)" })
    }

    /// Makes `count` hosts named after `tag` (short: link names have at most 15 characters),
    /// writing `ip`'s output to files in `directory`; on failure removes what it made and throws.
    public init(count: Int, tag: String, directory: String) throws(Failure) {
        guard let ip = Self.ipPath else { throw Failure(description: "ip (iproute2) is not installed") }
        self.ip = ip
        self.directory = directory
        // Another process (the benchmark beside the fault tests, two tests at once) may be
        // choosing too: until this one's addresses exist, the same network looks free to it,
        // and two hosts on one subnet route each other's packets into the wrong namespace.
        // The lock is held until the addresses are added (the kernel drops it if we die).
        let lock = Self.lockChoice()
        defer { Self.unlockChoice(lock) }
        let octet = try Self.unusedSecondOctet(ip: ip, directory: directory)
        network = "10.\(octet).0.0/16"
        let (namespaces, links) = Self.names(count: count, tag: tag)
        hosts = (0..<count).map {
            Host(namespace: namespaces[$0], databaseAddress: "10.\(octet).\($0 + 1).1", link: links[$0])
        }
        do {
            for (index, host) in hosts.enumerated() {
                let inside = "\(tag)n\(index + 1)"
                try run(["netns", "add", host.namespace])
                try run(["link", "add", host.link, "type", "veth", "peer", "name", inside])
                try run(["link", "set", inside, "netns", host.namespace])
                try run(["addr", "add", host.databaseAddress + "/24", "dev", host.link])
                try run(["link", "set", host.link, "up"])
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
    public func launcher(host index: Int) -> [String] {
        [ip, "netns", "exec", hosts[index].namespace]
    }

    /// Cuts host `index` off: its link goes down, and packets are dropped both ways, silently.
    public func cut(host index: Int) throws(Failure) {
        try run(["link", "set", hosts[index].link, "down"])
    }

    /// Brings host `index`'s link back.
    public func heal(host index: Int) throws(Failure) {
        try run(["link", "set", hosts[index].link, "up"])
    }

    /// Deletes the namespaces (and with them the veth pairs). Safe to call more than once.
    public func tearDown() {
        guard !tornDown else { return }
        tornDown = true
        Self.remove(namespaces: hosts.map(\.namespace), links: hosts.map(\.link), ip: ip, directory: directory)
    }

    /// Deletes what exists of `namespaces`, and of the root ends of `links` in case a link was
    /// made but not yet moved into its namespace.
    public static func remove(namespaces: [String], links: [String], ip: String, directory: String) {
        for namespace in namespaces where access("/run/netns/" + namespace, F_OK) == 0 {
            _ = try? run(ip, ["netns", "del", namespace], directory: directory)
        }
        for link in links where access("/sys/class/net/" + link, F_OK) == 0 {
            _ = try? run(ip, ["link", "del", link], directory: directory)
        }
    }

    private func run(_ arguments: [String]) throws(Failure) {
        _ = try Self.run(ip, arguments, directory: directory)
    }

    /// Runs `ip arguments` to its end (at most 30 s) and returns its standard output.
    private static func run(_ ip: String, _ arguments: [String], directory: String) throws(Failure) -> String {
        let output = "\(directory)/ip-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer {
            unlink(output + ".out")
            unlink(output + ".err")
        }
        let command = (["ip"] + arguments).joined(separator: " ")
        let pid: pid_t
        do {
            pid = try Spawn.start(
                ip, arguments, environment: [:], stdoutPath: output + ".out", stderrPath: output + ".err")
        } catch {
            throw Failure(description: "`\(command)`: \(error)")
        }
        var status: Int32 = 0
        var waited = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard waited < 3000 else {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw Failure(description: "`\(command)` did not finish within 30 s")
            }
            usleep(10_000)
            waited += 1
        }
        guard status == 0 else {
            throw Failure(description: "`\(command)` failed: \(read(output + ".err"))")
        }
        return read(output + ".out")
    }

    private static func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Where the processes making simulated hosts take turns choosing their network.
    static let choiceLockPath = "/run/todo-simulated-hosts.lock"

    /// Takes the machine-wide lock on choosing a network (`flock`, waiting); -1 if the lock
    /// file cannot be opened (then nothing is locked).
    private static func lockChoice() -> Int32 {
        let descriptor = open(choiceLockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return -1 }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        return descriptor
    }

    /// Releases what `lockChoice()` took.
    private static func unlockChoice(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// A second octet X in 200–254 such that no interface has an address in 10.X.0.0/16.
    private static func unusedSecondOctet(ip: String, directory: String) throws(Failure) -> Int {
        let addresses = try run(ip, ["-o", "-4", "addr", "show"], directory: directory)
        let used = Set(
            addresses.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { word -> Int? in
                let parts = word.split(separator: ".")
                return parts.count == 4 && parts[0] == "10" ? Int(parts[1]) : nil
            })
        guard let free = (200...254).first(where: { !used.contains($0) }) else {
            throw Failure(description: "every network 10.200-254.0.0/16 is in use here")
        }
        return free
    }
}
