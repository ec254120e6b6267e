import SyncProtocol

extension SyncClient {
    /// Subscribes to the view model named `viewModel` with `params`, yielding its models
    /// as JSON values (`nil` when it has none): for a program that forwards models without
    /// their type, such as the web gateway. Like `subscribe(_:params:)`, a consumer slower than
    /// the updates sees the newest model. A patched model is handed over as the JSON value the
    /// patch left, with no encoding or decoding.
    public func subscribe(viewModel: String, params: JSONValue) -> AsyncThrowingStream<
        ViewModelUpdate<JSONValue>, any Error
    > {
        subscription(
            encodeSubscribe: { id in try SubscribeRequest(id: id, viewModel: viewModel).encoded(params: params) },
            convert: { version, held in
                let model = try held.value()
                return ViewModelUpdate(version: version, model: model == .null ? nil : model)
            })
    }
}
