import CPQ
import Glibc

/// Where a conninfo string points, for people: host, port, database and user, never the
/// password (the conninfo itself is never logged or shown).
public struct PostgresTarget: Equatable, Sendable, CustomStringConvertible {
    /// The host or socket directory (`localhost` by libpq's default when none is given).
    public var host: String
    /// The port, if the conninfo gives one.
    public var port: String?
    /// The database name.
    public var database: String
    /// The user name, if the conninfo gives one.
    public var user: String?

    /// The parts of `conninfo` (a `key=value` string or a `postgresql://` URI), or why it is
    /// not one. The reason never quotes the conninfo: libpq's own message would quote the part
    /// it could not read, which may be a password. The first call opens libpq and libcrypto
    /// (`SharedLogLibraries`); when they cannot be opened, that is the reason.
    public static func parse(_ conninfo: String) -> Result<PostgresTarget, JournalError> {
        if let failure = SharedLogLibraries.shared.failure {
            return .failure(
                .cannotOpen(
                    path: "PostgreSQL",
                    reason:
                        "cannot open libpq or libcrypto, which the shared log needs (install libpq5 and libssl3): \(failure)"
                ))
        }
        var message: UnsafeMutablePointer<CChar>?
        guard let options = pq.conninfoParse(conninfo, &message) else {
            if let message { pq.freemem(message) }
            return .failure(
                .cannotOpen(
                    path: "PostgreSQL",
                    reason:
                        "the connection string is not valid: write key=value pairs (host=db.internal dbname=app user=app) or a URI (postgresql://app@db.internal/app)"
                ))
        }
        defer { pq.conninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        let environment = { (name: String) in getenv(name).map { String(cString: $0) } }
        let user = values["user"] ?? environment("PGUSER")
        return .success(
            PostgresTarget(
                host: values["host"] ?? values["hostaddr"] ?? environment("PGHOST") ?? "localhost",
                port: values["port"] ?? environment("PGPORT"),
                database: values["dbname"] ?? environment("PGDATABASE") ?? user ?? "postgres",
                user: user))
    }

    /// `postgresql host/database`, with the port when one is given.
    public var description: String {
        "PostgreSQL \(host)\(port.map { ":\($0)" } ?? "")/\(database)"
    }
}
