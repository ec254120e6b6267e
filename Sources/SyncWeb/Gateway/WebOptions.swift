/// The options every app's `web` command takes, parsed without I/O:
/// `[--listen ADDR:PORT] [--allow-remote] [--public-origin URL]...`.
public struct WebOptions: Sendable, Equatable {
    /// The usage line's arguments.
    public static let usage = "[--listen ADDR:PORT] [--allow-remote] [--public-origin URL]..."

    /// The help text of the options, for the command's `--help`.
    public static let help = """
        --listen ADDR:PORT   where to serve (default 127.0.0.1:8765; port 0: any free port)
        --allow-remote       allow a non-loopback address: anyone who can reach it and holds
                             the printed link (or the cookie it gives) may read the whole list
                             and change it, over plain HTTP; put a TLS reverse proxy in front
        --public-origin URL  an origin a reverse proxy serves the page from
                             (https://todo.example.com), accepted in Host and Origin
        """

    /// Where to listen.
    public var listen = ListenAddress.standard
    /// Origins of reverse proxies in front of the gateway.
    public var publicOrigins: [String] = []

    /// Reads `arguments`; the error is one line for the user.
    public init(parsing arguments: [String]) throws(WebOptionsError) {
        var allowRemote = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--listen":
                guard let value = rest.popFirst(), let address = ListenAddress(parsing: value) else {
                    throw WebOptionsError("--listen needs ADDR:PORT, an IPv4 address and a port (127.0.0.1:8765)")
                }
                listen = address
            case "--allow-remote":
                allowRemote = true
            case "--public-origin":
                guard let value = rest.popFirst(), RequestGuard.origin(value) != nil else {
                    throw WebOptionsError(
                        "--public-origin needs an origin like https://todo.example.com (a scheme, a host, a port if not the default; no path)"
                    )
                }
                publicOrigins.append(value)
            default:
                throw WebOptionsError("unknown option \(argument)")
            }
        }
        guard listen.isLoopback || allowRemote else {
            throw WebOptionsError(
                "\(listen.host) is reachable from other machines; give --allow-remote to serve on it anyway")
        }
    }
}

/// A `web` command line that does not parse.
public struct WebOptionsError: Error, Equatable, CustomStringConvertible {
    /// One line for the user.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
