import Foundation
import Glibc

/// Runs a built executable as another user (the tests must run as root for that), from copies
/// that user can reach wherever the checkout is.
///
/// The checkout may sit in a directory only root can enter (`mktemp -d` makes one, and
/// Debian's `/root` is one). The other user could then neither reach the built executable nor
/// read the suppressions file a sanitizer's options name (`LSAN_OPTIONS=suppressions=…`), and
/// a sanitizer that cannot read it exits 1 before `main`. So the executable and every such file
/// are copied into a directory the caller makes reachable, and the options are rewritten to
/// name the copies.
public enum OtherUser {
    /// The sanitizer option variables whose `suppressions=PATH` entries are carried over.
    static let sanitizerOptionVariables = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"]

    /// Starts the built executable `name` with `arguments` as uid and gid `id`, with no
    /// supplementary groups (`setpriv`), from a copy in `directory`, which must be reachable by
    /// `id` (mode 0755, say); its output is captured there too.
    public static func start(_ name: String, _ arguments: [String], as id: UInt32, in directory: String) throws
        -> ChildProcess
    {
        let program = try place(Binaries.path(name), in: directory, as: name, mode: 0o755)
        var environment: [String: String] = [:]
        for variable in sanitizerOptionVariables {
            guard let options = ProcessInfo.processInfo.environment[variable] else { continue }
            environment[variable] = try reachableOptions(options, in: directory, for: variable)
        }
        return try ChildProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=\(id)", "--regid=\(id)", "--clear-groups", program,
            ] + arguments, environment: environment, outputDirectory: directory)
    }

    /// `options` (sanitizer options, `key=value` separated by colons) with each
    /// `suppressions=PATH` pointing at a copy of PATH in `directory`.
    static func reachableOptions(_ options: String, in directory: String, for variable: String) throws -> String {
        try options.split(separator: ":", omittingEmptySubsequences: false).map { option in
            guard option.hasPrefix("suppressions=") else { return String(option) }
            let path = String(option.dropFirst("suppressions=".count))
            return "suppressions=" + (try place(path, in: directory, as: "\(variable)-suppressions.txt", mode: 0o644))
        }.joined(separator: ":")
    }

    /// Copies `path` into `directory` as `name` with `mode`, and returns the copy's path. (A
    /// hard link would be cheaper, but its mode is the original's.) Both files are opened
    /// close-on-exec: a child another test spawns meanwhile must not inherit the copy open for
    /// writing, or executing it would fail with ETXTBSY.
    private static func place(_ path: String, in directory: String, as name: String, mode: mode_t) throws -> String {
        let target = directory + "/" + name
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw TestFailure("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(source) }
        let copy = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard copy >= 0 else { throw TestFailure("cannot create \(target): \(String(cString: strerror(errno)))") }
        defer { close(copy) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(source, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw TestFailure("reading \(path) failed: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            guard write(copy, buffer, count) == count else {
                throw TestFailure("writing \(target) failed: \(String(cString: strerror(errno)))")
            }
        }
        // The umask may have taken bits away.
        guard fchmod(copy, mode) == 0 else { throw TestFailure("chmod \(target): \(String(cString: strerror(errno)))") }
        return target
    }
}
