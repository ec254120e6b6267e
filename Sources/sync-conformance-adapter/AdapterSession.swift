import SyncClient
import SyncProtocol

/// The clients and subscriptions the runner named, and what each operation does with them
/// (the format is in conformance/README.md).
actor AdapterSession {
    private let output: AdapterOutput
    private var clients: [String: SyncClient] = [:]
    private var subscriptions: [String: Task<Void, Never>] = [:]

    init(output: AdapterOutput) {
        self.output = output
    }

    /// Runs `request` and writes its reply: `{"id", "ok": …}` or `{"id", "error": …}`.
    func handle(_ request: AdapterRequest) async {
        do throws(AdapterError) {
            let result = try await perform(request)
            output.write(["id": request.id, "ok": result])
        } catch {
            output.write(["id": request.id, "error": error.json])
        }
    }

    private func perform(_ request: AdapterRequest) async throws(AdapterError) -> JSONValue {
        do {
            switch request.op {
            case "connect": return try await connect(request)
            case "close":
                clients.removeValue(forKey: request.client)?.close()
                return .object([:])
            case "dispatch":
                let version = try await client(request).dispatch(
                    actionNamed: try request.string("name"), payload: request.object("payload"))
                return .object(["version": .integer(Int64(version))])
            case "batch":
                let version = try await client(request).dispatch(batchOfNamed: try batchActions(request))
                return .object(["version": .integer(Int64(version))])
            case "run":
                let result = try await client(request).run(
                    sideEffectNamed: try request.string("name"), payload: request.object("payload"))
                return .object(["result": result])
            case "get":
                let at = try request.version("at")
                let reply = try await client(request).get(
                    viewModel: try request.string("viewModel"), params: request.object("params"), at: at)
                return .object(["version": .integer(Int64(reply.version)), "model": reply.model ?? .null])
            case "history":
                let after = try request.version("after")
                let limit = Int(try request.integer("limit") ?? 20)
                let entries = try await client(request).history(after: after, limit: limit)
                return .object(["entries": try Self.json(entries)])
            case "ping":
                try await client(request).ping()
                return .object([:])
            case "subscribe": return try subscribe(request)
            case "unsubscribe":
                let task = subscriptions.removeValue(forKey: try request.string("subscription"))
                task?.cancel()
                await task?.value
                return .object([:])
            default: throw AdapterError(code: "bad_request", message: "no operation \"\(request.op)\"")
            }
        } catch let error as AdapterError {
            throw error
        } catch let error as SyncClientError {
            throw AdapterError(error)
        } catch {
            throw AdapterError(code: "client_error", message: "\(error)")
        }
    }

    private func connect(_ request: AdapterRequest) async throws(AdapterError) -> JSONValue {
        let app: String?
        if case .string(let name)? = request.fields["app"] { app = name } else { app = nil }
        let name = (try? request.string("clientName")) ?? "swift-conformance/1"
        let path = try request.string("socket")
        do throws(SyncClientError) {
            let client = try await SyncClient.connect(socketPath: path, clientName: name, app: app)
            clients[request.client] = client
            let server = client.server
            return .object([
                "server": .object([
                    "app": server.app.map(JSONValue.string) ?? .null,
                    "protocol": .integer(Int64(server.protocolVersion)),
                    "version": .integer(Int64(server.version)), "server": .string(server.name),
                ])
            ])
        } catch {
            throw AdapterError(error)
        }
    }

    private func client(_ request: AdapterRequest) throws(AdapterError) -> SyncClient {
        guard let client = clients[request.client] else {
            throw AdapterError(code: "bad_request", message: "no client \"\(request.client)\" connected")
        }
        return client
    }

    private func batchActions(_ request: AdapterRequest) throws(AdapterError) -> [(name: String, payload: JSONValue)] {
        guard case .array(let actions)? = request.fields["actions"] else {
            throw AdapterError(code: "bad_request", message: "batch needs an array \"actions\"")
        }
        return try actions.map { (action: JSONValue) throws(AdapterError) in
            guard case .string(let name)? = action["name"] else {
                throw AdapterError(code: "bad_request", message: "each action has a string \"name\"")
            }
            return (name, action["payload"] ?? .object([:]))
        }
    }

    /// Starts following the subscription; its updates are events `{"event": "update", …}`,
    /// its end one `{"event": "end", …}`.
    private func subscribe(_ request: AdapterRequest) throws(AdapterError) -> JSONValue {
        let name = try request.string("subscription")
        let stream = try client(request).subscribe(
            viewModel: try request.string("viewModel"), params: request.object("params"))
        let output = output
        subscriptions[name] = Task {
            var ending: JSONValue = .null
            do {
                for try await update in stream {
                    output.write([
                        "event": .string("update"), "subscription": .string(name),
                        "version": .integer(Int64(update.version)),
                        "model": update.model ?? .null,
                    ])
                }
            } catch let error as SyncClientError {
                ending = AdapterError(error).json
            } catch {
                ending = AdapterError(code: "client_error", message: "\(error)").json
            }
            output.write(["event": .string("end"), "subscription": .string(name), "error": ending])
        }
        return .object([:])
    }

    /// Ends every subscription and closes every client.
    func finish() async {
        for task in subscriptions.values {
            task.cancel()
            await task.value
        }
        subscriptions = [:]
        for client in clients.values { client.close() }
        clients = [:]
    }

    private static func json(_ entries: [HistoryEntry]) throws(AdapterError) -> JSONValue {
        do {
            return try WireJSON.decode(JSONValue.self, from: try WireJSON.encode(entries))
        } catch {
            throw AdapterError(code: "client_error", message: "history entries that do not encode: \(error)")
        }
    }
}
