import Foundation
import Glibc

extension PrivatePostgres {
    /// What `initdb` is run with; a change needs a new `templateName`. WAL segments of 1 MiB
    /// instead of 16 make the cluster every server copies 29 MiB instead of 39 (a copy to a
    /// disk took 0.35 s of CPU instead of 0.54; a test run makes about 40).
    static let initdbArguments = [
        "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C", "--wal-segsize=1",
    ]
    /// The name of the template cluster beside the test binary.
    static let templateName = "postgres-15-template-2"
    /// Held while this process makes the template, so that parallel tests run `initdb` once.
    private static let templateLock = NSLock()

    /// Creates a pristine cluster in `dataDirectory`, owned by postgres.
    ///
    /// `initdb` costs about 1 s of CPU, copying its result 0.1 s into /dev/shm (1.0 s to a
    /// directory on this project's disks; see `BuiltPrograms.temporaryDirectory`): the first
    /// server made from a build directory runs `initdb` and publishes a copy of the new cluster
    /// beside the test binary (in the build directory, so every later test run uses it too);
    /// later servers copy that. The copy is published by a rename, so a concurrent test process
    /// never sees half of one.
    func makeCluster() throws {
        let template = URL(fileURLWithPath: Binaries.path("todod")).deletingLastPathComponent().appendingPathComponent(
            Self.templateName
        ).path
        let isPublished = { FileManager.default.fileExists(atPath: template + "/global/pg_control") }
        let made =
            try isPublished()
            ? false
            : Self.templateLock.withLock {
                if isPublished() { return false }
                try asPostgres(Self.binaries + "/initdb", ["-D", dataDirectory] + Self.initdbArguments)
                try publish(dataDirectory, as: template)
                return true
            }
        if !made { try copy(template, to: dataDirectory) }
    }

    /// Copies the cluster `source` to `template` by way of a temporary name beside it; a
    /// template another process published first is kept.
    private func publish(_ source: String, as template: String) throws {
        let staging = "\(template).\(getpid()).\(UUID().uuidString.prefix(8))"
        try copy(source, to: staging)
        if rename(staging, template) != 0 {
            let reason = errno
            try? FileManager.default.removeItem(atPath: staging)
            guard reason == EEXIST || reason == ENOTEMPTY else {
                throw TestFailure("PrivatePostgres: cannot publish \(template): \(String(cString: strerror(reason)))")
            }
        }
    }

    /// `cp -a source target`, as root (owners and modes kept).
    private func copy(_ source: String, to target: String) throws {
        _ = try run("/bin/cp", ["-a", source, target], describedAs: "cp -a \(source) \(target)")
    }
}
