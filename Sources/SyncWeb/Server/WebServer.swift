import CWebSockets
import Glibc
import SyncProtocol

/// The libwebsockets context and everything confined to its thread: the core, the browsers'
/// `wsi`s, the access rules. libwebsockets calls `WebServer.callback` on that thread only;
/// other threads reach it through the inbox.
///
/// Lifecycle: `init` creates the context (listening at once, so a bad address fails before
/// any thread starts), `serve()` runs on the gateway's own thread until `.stop` arrives, then
/// destroys the context there. Not `Sendable`: after `init` only that thread touches it.
final class WebServer {
    let inbox: GatewayInbox
    let bridge: DaemonBridge
    /// The port listened on (the chosen one, for port 0).
    private(set) var port = 0
    private var core: GatewayCore
    private var rules: RequestGuard
    private let page: WebPage
    private var sockets: [SessionID: OpaquePointer] = [:]
    /// The session of each established socket, by the `wsi`'s address.
    private var sessionOfSocket: [UInt: SessionID] = [:]
    private var nextSession: UInt64 = 1
    private var context: OpaquePointer?
    private let storage = UnsafeMutablePointer<cws_context_storage>.allocate(capacity: 1)
    /// The address listened on and the protocol's name, as libwebsockets keeps them (it reads
    /// them again after creation, so a Swift string's temporary C copy would be gone): alive
    /// until the context is destroyed.
    private let listenHost: UnsafeMutablePointer<CChar>
    private let protocolName: UnsafeMutablePointer<CChar>
    private var stopping = false
    /// libwebsockets' functions.
    private let lws: UnsafePointer<cws_library>
    /// How long stopping waits for browsers to take their close frame.
    private static let closingSeconds: UInt64 = 2

    /// Creates the context listening on `configuration.listen`.
    init(_ configuration: WebGatewayConfiguration, bridge: DaemonBridge, inbox: GatewayInbox)
        throws(WebGatewayError)
    {
        let library = WebSocketsLibrary.shared
        if let failure = library.failure {
            storage.deallocate()
            throw .libraryMissing(failure)
        }
        lws = library.functions
        self.inbox = inbox
        self.bridge = bridge
        listenHost = strdup(configuration.listen.host)
        protocolName = strdup("sync")
        page = configuration.page
        core = GatewayCore(
            app: configuration.identity.name, allowlist: configuration.allowlist, limits: configuration.limits)
        rules = RequestGuard(address: configuration.listen, publicOrigins: [])
        lws.pointee.set_log_level(LLL_ERR, nil)
        // libwebsockets keeps `self` as the context's user pointer and calls back during
        // creation already; `self` outlives the context (destroyed in `serve()`).
        let created =
            cws_create_context(
                lws, storage, protocolName, listenHost, Int32(configuration.listen.port),
                { wsi, reason, _, input, length in
                    let lws = WebSocketsLibrary.shared.functions.pointee
                    let server = Unmanaged<WebServer>.fromOpaque(lws.context_user(lws.get_context(wsi))!)
                        .takeUnretainedValue()
                    return server.handle(wsi!, reason, input, length)
                }, Unmanaged.passUnretained(self).toOpaque(), 4096, configuration.limits.pingSeconds,
                configuration.limits.hangupSeconds)
        guard let created else {
            storage.deallocate()
            free(listenHost)
            free(protocolName)
            throw .cannotListen(configuration.listen)
        }
        context = created
        port = Int(cws_listen_port(lws, created))
        let bound = ListenAddress(host: configuration.listen.host, port: port)
        rules = RequestGuard(address: bound, publicOrigins: configuration.publicOrigins)
        inbox.attach(created)
        // libwebsockets spends a writable callback on finishing a partly written message, so a
        // request for one made meanwhile can be lost: a sweep asks again for every browser
        // that still has something due.
        cws_start_sweep(
            lws, storage, created, { raw in Unmanaged<WebServer>.fromOpaque(raw!).takeUnretainedValue().sweep() },
            Unmanaged.passUnretained(self).toOpaque(), 100_000)
    }

    private func sweep() {
        drainInbox()
        perform(core.pending.map { .wantWritable($0) })
    }

    /// The one-time token of the printed URL.
    var token: String { rules.keys.token ?? "" }

    /// Serves until `.stop` arrives, then closes every browser's connection with a close frame
    /// (1001, going away), waits up to `closingSeconds` for them to go, and destroys the
    /// context. Runs on the gateway's thread.
    func serve() {
        guard let context else { return }
        while !stopping {
            if lws.pointee.service(context, 0) < 0 { break }
        }
        for wsi in sockets.values {
            cws_close_with_reason(lws, wsi, 1001, "the gateway is stopping")
            _ = lws.pointee.callback_on_writable(wsi)
        }
        let deadline = Self.milliseconds() + Self.closingSeconds * 1000
        while !sockets.isEmpty && Self.milliseconds() < deadline {
            if lws.pointee.service(context, 0) < 0 { break }
        }
        inbox.attach(nil)
        lws.pointee.context_destroy(context)
        self.context = nil
        storage.deallocate()
        free(listenHost)
        free(protocolName)
    }

    private func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(wsi)))
        if reason == LWS_CALLBACK_ESTABLISHED {
            sessionOfSocket[address] = SessionID(raw: nextSession)
            nextSession += 1
        }
        let session = sessionOfSocket[address]
        switch reason {
        case LWS_CALLBACK_HTTP:
            let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
            return answerHTTP(wsi, path: path)
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return filterUpgrade(wsi)
        case LWS_CALLBACK_ESTABLISHED:
            guard let id = session, !stopping else { return -1 }
            sockets[id] = wsi
            perform(core.opened(id))
        case LWS_CALLBACK_RECEIVE:
            guard let id = session else { return -1 }
            let bytes = input.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
            let isLast = lws.pointee.is_final_fragment(wsi) != 0 && lws.pointee.remaining_packet_payload(wsi) == 0
            switch core.received(id, bytes, isLast: isLast, now: Self.milliseconds()) {
            case .keep(let outputs):
                perform(outputs)
            case .close(let code, let reason):
                cws_close_with_reason(lws, wsi, code, reason)
                return -1
            }
        case LWS_CALLBACK_SERVER_WRITEABLE:
            // Stopping: returning -1 sends the close frame set in `serve()`.
            guard let id = session, !stopping else { return -1 }
            guard let next = core.nextMessage(for: id) else { return 0 }
            if next.message.withUnsafeBufferPointer({ cws_send_text(lws, wsi, $0.baseAddress, $0.count) }) != 0 {
                return -1
            }
            if next.more { _ = lws.pointee.callback_on_writable(wsi) }
        case LWS_CALLBACK_CLOSED:
            guard let id = session else { return 0 }
            sessionOfSocket[address] = nil
            sockets[id] = nil
            core.closed(id)
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            drainInbox()
        default:
            break
        }
        return 0
    }

    private func drainInbox() {
        for event in inbox.drain() {
            switch event {
            case .model(let feed, let version, let model):
                perform(core.modelArrived(feed, version: version, model: model))
            case .answered(let session, let requestID, let answer):
                perform(core.answered(session, requestID: requestID, answer))
            case .daemon(let live, let version):
                perform(core.daemonChanged(live: live, version: version))
            case .stop:
                stopping = true
            }
        }
    }

    private func perform(_ outputs: [GatewayOutput]) {
        for output in outputs {
            switch output {
            case .wantWritable(let id):
                if let wsi = sockets[id] { _ = lws.pointee.callback_on_writable(wsi) }
            case .follow(let feed):
                bridge.follow(feed)
            case .dispatch(let id, let requestID, let action, let payload):
                bridge.dispatch(id, requestID: requestID, action: action, payload: payload)
            }
        }
    }

    private func answerHTTP(_ wsi: OpaquePointer, path: String) -> Int32 {
        var facts = facts(of: wsi, path: path)
        facts.token = urlArgument(wsi, "token=")
        switch rules.decide(facts) {
        case .serve(let path):
            guard let file = page.file(at: path) else {
                return respond(wsi, status: 404, type: "text/plain; charset=utf-8", body: Array("Not found.\n".utf8))
            }
            return respond(wsi, status: 200, type: file.contentType, body: file.bytes)
        case .redirect(let cookie):
            return respond(
                wsi, status: 303, type: "text/plain; charset=utf-8", body: Array("Signed in.\n".utf8),
                extra: [("location:", "/"), ("set-cookie:", cookie)])
        case .refuse(let status, let reason):
            return respond(wsi, status: status, type: "text/plain; charset=utf-8", body: Array((reason + "\n").utf8))
        case .upgrade:
            return -1
        }
    }

    private func filterUpgrade(_ wsi: OpaquePointer) -> Int32 {
        guard core.acceptsConnection else {
            _ = lws.pointee.return_http_status(wsi, 503, "The gateway serves as many browsers as it may.")
            return 1
        }
        switch rules.decideUpgrade(facts(of: wsi, path: "/")) {
        case .upgrade:
            return 0
        case .refuse(let status, let reason):
            _ = lws.pointee.return_http_status(wsi, status, reason)
            return 1
        case .serve, .redirect:
            return 1
        }
    }

    private func respond(
        _ wsi: OpaquePointer, status: UInt32, type: String, body: [UInt8], extra: [(String, String)] = []
    ) -> Int32 {
        let headers = SecurityHeaders.all + extra.map { (name: $0.0, value: $0.1) }
        let names = headers.map { strdup($0.name) }
        let values = headers.map { strdup($0.value) }
        defer {
            for pointer in names + values { free(pointer) }
        }
        let namePointers = names.map { UnsafePointer($0) }
        let valuePointers = values.map { UnsafePointer($0) }
        return namePointers.withUnsafeBufferPointer { namesBuffer in
            valuePointers.withUnsafeBufferPointer { valuesBuffer in
                body.withUnsafeBufferPointer { bodyBuffer in
                    cws_respond(
                        lws, wsi, status, type, namesBuffer.baseAddress, valuesBuffer.baseAddress, Int32(headers.count),
                        bodyBuffer.baseAddress, bodyBuffer.count)
                }
            }
        }
    }

    private func facts(of wsi: OpaquePointer, path: String) -> HTTPRequestFacts {
        HTTPRequestFacts(
            path: path, host: header(wsi, WSI_TOKEN_HOST), origin: header(wsi, WSI_TOKEN_ORIGIN),
            cookie: header(wsi, WSI_TOKEN_HTTP_COOKIE), token: nil)
    }

    private func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = cws_header(lws, wsi, token, &buffer, Int32(buffer.count))
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func urlArgument(_ wsi: OpaquePointer, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard let value = lws.pointee.get_urlarg_by_name(wsi, name, &buffer, Int32(buffer.count)) else { return nil }
        return String(cString: value)
    }

    private static func milliseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1000 + UInt64(time.tv_nsec) / 1_000_000
    }
}
