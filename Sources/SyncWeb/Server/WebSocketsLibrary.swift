import CWebSockets

/// libwebsockets, opened when the first gateway of the process starts rather than linked: a
/// program that links SyncWeb and never serves a page (every other command of an app's CLI)
/// does not load it, nor the TLS libraries it pulls in (see `CWebSockets/shim.h`).
final class WebSocketsLibrary: @unchecked Sendable {
    // @unchecked: `functions` is written once, in `init`, and only read after.

    /// The process's one copy, opened on first use.
    static let shared = WebSocketsLibrary()

    /// The library's functions; usable only when `failure` is `nil`.
    let functions: UnsafePointer<cws_library>
    /// Why the library could not be opened (the loader's words), if it could not.
    let failure: String?

    private init() {
        let functions = UnsafeMutablePointer<cws_library>.allocate(capacity: 1)
        failure = cws_load(functions).map { String(cString: $0) }
        self.functions = UnsafePointer(functions)
    }
}
