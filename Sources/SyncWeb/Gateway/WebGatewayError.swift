/// Why a gateway could not start.
public enum WebGatewayError: Error, Equatable, CustomStringConvertible {
    /// libwebsockets could not listen on the address (in use, not an address of this machine).
    case cannotListen(ListenAddress)
    /// The gateway's thread could not be started (errno).
    case cannotStartThread(Int32)
    /// libwebsockets could not be opened (the loader's words).
    case libraryMissing(String)

    /// One line for users.
    public var description: String {
        switch self {
        case .cannotListen(let address):
            return "cannot listen on \(address) (in use, or not an address of this machine)"
        case .cannotStartThread(let code): return "cannot start the gateway's thread (errno \(code))"
        case .libraryMissing(let reason):
            return "cannot open libwebsockets, which serves the page (install libwebsockets17): \(reason)"
        }
    }
}
