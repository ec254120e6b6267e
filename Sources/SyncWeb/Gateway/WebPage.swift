/// The static files of a page, served as they are: HTML, CSS and JavaScript modules, with no
/// build step. The app embeds them in its binary (SwiftPM's `embedInCode`) and hands them over.
public struct WebPage: Sendable {
    /// One file: its bytes and the `Content-Type` it is served with.
    public struct File: Sendable {
        /// The `Content-Type` header's value.
        public let contentType: String
        /// The file's bytes.
        public let bytes: [UInt8]

        /// A file of `bytes`, served as `contentType`.
        public init(contentType: String, bytes: [UInt8]) {
            self.contentType = contentType
            self.bytes = bytes
        }

        /// A file of `bytes` whose type follows from the extension of `name`
        /// (`.html`, `.css`, `.js`, `.svg`, `.png`; anything else is `application/octet-stream`).
        public init(named name: String, bytes: [UInt8]) {
            self.init(contentType: Self.contentType(of: name), bytes: bytes)
        }

        private static func contentType(of name: String) -> String {
            let types = [
                "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
                "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
            ]
            return name.split(separator: ".").last.flatMap { types[String($0)] } ?? "application/octet-stream"
        }
    }

    /// The files by path (`/index.html`, `/app.js`); `/` serves `/index.html`.
    public let files: [String: File]

    /// A page of `files`, keyed by their path from the root (`"/index.html"`), and the page
    /// protocol's modules at `/gateway.js` (the `Gateway` class: one WebSocket, subscriptions
    /// that resume, dispatches answered by id) and `/patch.js` (RFC 6902 `applyPatch`), which
    /// the app's own modules import. An app's file of the same path replaces one of them.
    public init(files: [String: File]) {
        self.files = Self.protocolModules.merging(files) { _, app in app }
    }

    /// The page protocol's JavaScript modules, shipped with the gateway.
    static let protocolModules: [String: File] = [
        "/gateway.js": File(named: "gateway.js", bytes: PackageResources.gateway_js),
        "/patch.js": File(named: "patch.js", bytes: PackageResources.patch_js),
    ]

    /// The file `path` names (`/` is `/index.html`), if any.
    func file(at path: String) -> File? {
        files[path == "/" ? "/index.html" : path]
    }
}
