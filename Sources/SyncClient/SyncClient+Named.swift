import SyncProtocol

extension SyncClient {
    /// Dispatches the action named `name` with `payload` (a JSON object), as
    /// `dispatch(_:)` does for a typed action: numbered for exactly-once, and returning the
    /// version once durable. For programs that know actions by name only, such as a
    /// conformance adapter or a bridge from another language.
    public func dispatch(actionNamed name: String, payload: JSONValue) async throws(SyncClientError) -> UInt64 {
        let reply = try await request(numbered: true) { id, sequence in
            try DispatchRequest(id: id, actionName: name, sequence: sequence.map(Int64.init)).encoded(payload: payload)
        }
        guard case .ack(_, let version) = reply else { throw .protocolViolation("expected ack, got \(reply.typeName)") }
        return version
    }

    /// Applies the actions named with their payloads all or nothing, as `dispatch(batch:)` does.
    public func dispatch(batchOfNamed actions: [(name: String, payload: JSONValue)]) async throws(SyncClientError)
        -> UInt64
    {
        try await dispatch(encodedBatch: { try actions.map { ($0.name, try WireJSON.encode($0.payload)) } })
    }

    /// Sends the batch `encode` makes (each action's name and payload), numbered, and returns
    /// the version of its ack.
    func dispatch(encodedBatch encode: () throws -> [(name: String, payload: [UInt8])]) async throws(SyncClientError)
        -> UInt64
    {
        let items: [(name: String, payload: [UInt8])]
        do {
            items = try encode()
        } catch {
            throw .protocolViolation("an action of the batch cannot be encoded: \(error)")
        }
        let reply = try await request(numbered: true) { id, sequence in
            try BatchRequest(id: id, sequence: sequence.map(Int64.init)).encoded(actions: items)
        }
        guard case .ack(_, let version) = reply else { throw .protocolViolation("expected ack, got \(reply.typeName)") }
        return version
    }

    /// Runs the side effect named `name` with `payload` and returns its result as JSON, as
    /// `run(_:)` does for a typed side effect.
    public func run(sideEffectNamed name: String, payload: JSONValue) async throws(SyncClientError) -> JSONValue {
        let (reply, frame) = try await requestWithPayload { id, _ in
            try DispatchRequest(id: id, actionName: name).encoded(payload: payload)
        }
        guard case .result = reply else { throw .protocolViolation("expected result, got \(reply.typeName)") }
        do {
            return try WireJSON.decode(ResultEnvelope<JSONValue>.self, from: frame).result
        } catch {
            throw .protocolViolation("a \(name) result that is not JSON: \(error)")
        }
    }

    /// The model of the view model named `viewModel` with `params`, now or, with `version`,
    /// as it was then (one `get` request; `nil` model when it has no value).
    public func get(viewModel: String, params: JSONValue, at version: UInt64? = nil) async throws(SyncClientError)
        -> ViewModelUpdate<JSONValue>
    {
        let (reply, frame) = try await requestWithPayload { id, _ in
            try GetRequest(id: id, viewModel: viewModel, at: version.map(Int64.init)).encoded(params: params)
        }
        guard case .model(_, let replyVersion) = reply else {
            throw .protocolViolation("expected model, got \(reply.typeName)")
        }
        do {
            let model = try WireJSON.decode(UpdateEnvelope<JSONValue>.self, from: frame).model
            return ViewModelUpdate(version: replyVersion, model: model == .null ? nil : model)
        } catch {
            throw .protocolViolation("a \(viewModel) model that is not JSON: \(error)")
        }
    }
}
