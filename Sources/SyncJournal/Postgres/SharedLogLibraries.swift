import CCrypto
import CPQ

/// libpq and libcrypto's SHA-256, opened when the process first reads a PostgreSQL connection
/// string (`PostgresTarget.parse`) rather than linked: a daemon on SQLite loads neither, nor
/// the TLS, Kerberos and LDAP libraries libpq pulls in (see `CPQ/shim.h`).
final class SharedLogLibraries: @unchecked Sendable {
    // @unchecked: written once, in `init`, and only read after.

    /// The process's one copy, opened on first use.
    static let shared = SharedLogLibraries()

    /// libpq's functions; not to be read while `failure` is not `nil`.
    private let pqFunctions: UnsafeMutablePointer<cpq_library>
    /// libcrypto's SHA-256, once opened.
    private let sha256Function: SHA256Function?

    /// The type of libcrypto's `SHA256(data, count, digest)`.
    private typealias SHA256Function =
        @convention(c) (
            UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?
        ) -> UnsafeMutablePointer<UInt8>?
    /// Why a library could not be opened (the loader's words), if one could not.
    let failure: String?

    private init() {
        pqFunctions = .allocate(capacity: 1)
        var cryptoFailure: UnsafePointer<CChar>?
        sha256Function = ccrypto_load(&cryptoFailure)
        // Copied at once: the loader's next call (libpq's) frees the text.
        let cryptoReason = cryptoFailure.map { String(cString: $0) }
        let pqReason = cpq_load(pqFunctions).map { String(cString: $0) }
        failure = pqReason ?? cryptoReason
    }

    /// libpq's functions. For code that runs once `failure` was found `nil`.
    var pq: cpq_library {
        precondition(failure == nil, "libpq used although it could not be opened")
        return pqFunctions.pointee
    }

    /// The SHA-256 digest of `count` bytes at `input` into the 32 bytes at `output`.
    func sha256(_ input: UnsafePointer<UInt8>?, _ count: Int, _ output: UnsafeMutablePointer<UInt8>?) {
        guard let sha256Function, failure == nil else {
            preconditionFailure("libcrypto used although it could not be opened")
        }
        _ = sha256Function(input, count, output)
    }
}

/// libpq's functions (`SharedLogLibraries`).
var pq: cpq_library { SharedLogLibraries.shared.pq }
