import Glibc
import SyncStore

/// Socket activation: systemd (or `systemd-socket-activate`) binds the socket, starts the
/// daemon on the first connection, and passes the listening socket as file descriptor 3.
///
/// The protocol: `LISTEN_PID` names the process the descriptors are for, `LISTEN_FDS` how many
/// follow fd 3, and `LISTEN_FDNAMES` (optional) their names, colon-separated. The variables are
/// removed once read, so that nothing the daemon might start takes them for its own.
enum SystemdActivation {
    /// The first descriptor systemd passes.
    static let firstDescriptor: Int32 = 3
    /// The listening socket systemd passed to this process, or `nil` when not socket-activated.
    /// When several are passed, the one named after `identity`'s daemon (`todod` or
    /// `todod.socket`) is taken.
    static func listeningDescriptor(named identity: AppIdentity) throws(DaemonError) -> Int32? {
        let acceptedNames: Set<String> = [identity.daemonName, identity.socketUnitName]
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = environment("LISTEN_PID").flatMap(Int32.init), pid == getpid(),
            let count = environment("LISTEN_FDS").flatMap(Int32.init), count >= 1
        else { return nil }
        var index: Int32 = 0
        if let names = environment("LISTEN_FDNAMES")?.split(separator: ":", omittingEmptySubsequences: false).map(
            String.init), count > 1
        {
            guard let match = names.firstIndex(where: acceptedNames.contains) else {
                throw .activation(
                    reason:
                        "\(count) sockets were passed (\(names.joined(separator: ", "))) and none is named \(identity.daemonName)"
                )
            }
            index = Int32(match)
        }
        let descriptor = firstDescriptor + index
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
            throw .activation(reason: "descriptor \(descriptor) is not a socket")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
