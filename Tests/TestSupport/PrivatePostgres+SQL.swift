import Foundation
import Glibc

extension PrivatePostgres {
    /// Runs `sql` (one or more statements, each in its own transaction unless the script says
    /// otherwise) with `psql -X -A -t -v ON_ERROR_STOP=1` on `conninfo`, as root, and returns
    /// what it printed without the final line break: unaligned rows without headers, columns
    /// separated by `|`, one row a line (`select 1` gives "1"). Throws with psql's error
    /// message (the server's, for bad SQL) when a statement fails or the server is unreachable.
    /// `user` is the role psql logs in as (the authentication trusts every local user), in
    /// `database`.
    @discardableResult
    public func psql(_ sql: String, as user: String = "postgres", in database: String = "postgres") throws -> String {
        let script = "\(directory)/psql-\(UUID().uuidString.prefix(8)).sql"
        guard
            FileManager.default.createFile(
                atPath: script, contents: Data(sql.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw TestFailure("PrivatePostgres: cannot write \(script)")
        }
        defer { unlink(script) }
        var output = try run(
            Self.binaries + "/psql",
            ["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", conninfo(as: user, database: database), "-f", script],
            describedAs: "psql \(sql.count > 200 ? String(sql.prefix(200)) + "…" : sql)"
        )
        while output.hasSuffix("\n") { output.removeLast() }
        return output
    }

    /// Terminates every client session whose `application_name` starts with `prefix` (except
    /// psql's own) and waits up to 10 s for each to be gone (`pg_terminate_backend(pid, 10000)`).
    /// Returns how many it terminated: a daemon's connections end as in a network failure.
    @discardableResult
    public func terminateBackends(applicationNamePrefix prefix: String) throws -> Int {
        let literal = "'" + prefix.replacingOccurrences(of: "'", with: "''") + "'"
        // Materialized first, so that no session is terminated before its name was checked.
        let output = try psql(
            """
            with targets as materialized (
                select pid from pg_stat_activity
                where pid <> pg_backend_pid() and backend_type = 'client backend'
                    and left(application_name, length(\(literal))) = \(literal)
            )
            select count(*) filter (where pg_terminate_backend(pid, 10000)) from targets
            """
        )
        guard let count = Int(output) else { throw TestFailure("PrivatePostgres: terminateBackends got \"\(output)\"") }
        return count
    }
}
