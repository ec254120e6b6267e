/// What the gateway reads of an HTTP request (or a WebSocket upgrade) to decide on it.
struct HTTPRequestFacts {
    /// The path, without the query.
    var path: String
    /// The `Host` header, if any.
    var host: String?
    /// The `Origin` header, if any.
    var origin: String?
    /// The `Cookie` header, if any.
    var cookie: String?
    /// The `token` query argument, if any.
    var token: String?
}
