import SyncProtocol
import SyncStore

extension Engine {
    /// Handles `subscribe`: replies `subscribed`, then at once the pair's current model.
    func subscribe(_ connection: ClientConnection, requestID: Int64, viewModel: String, payload: [UInt8]) {
        guard let type = App.viewModelType(named: viewModel) else {
            refuse(.unknownViewModel, "No view model is named \"\(viewModel)\".", requestID: requestID, on: connection)
            return
        }
        guard connection.subscriptions.count < configuration.maximumSubscriptionsPerConnection else {
            let limit = configuration.maximumSubscriptionsPerConnection
            refuse(
                .tooManySubscriptions, "This connection already holds \(limit) subscriptions, the limit.",
                requestID: requestID, on: connection)
            return
        }
        let source: (key: ViewKey, make: () -> any ViewSource<App.State>)
        do {
            source = try Self.viewSource(type, payload: payload)
        } catch {
            refuse(
                .invalidParams, "The params are not valid for \"\(viewModel)\" (\(error.shortDescription)).",
                requestID: requestID, on: connection)
            return
        }
        let subscription = connection.nextSubscriptionID
        connection.nextSubscriptionID += 1
        connection.subscriptions[subscription] = source.key
        let subscriber = ViewSubscriber(connectionID: connection.id, subscription: subscription)
        let model = hub.subscribe(
            subscriber, to: source.key, takesPatches: connection.takesPatches, makeSource: source.make,
            state: publishedState, version: publishedVersion)
        send(.subscribed(id: requestID, subscription: subscription), to: connection)
        enqueueUpdate(
            ViewChange(model: model, patch: nil, base: publishedVersion), subscription: subscription,
            version: publishedVersion, to: connection)
    }

    /// The model an update left for later carries (see `OutboundQueue`): the pair's model at
    /// the published state, encoded now that the socket can take it.
    func newestModel(of subscription: Int64, in connection: ClientConnection) -> (version: UInt64, model: [UInt8])? {
        guard let key = connection.subscriptions[subscription] else { return nil }
        let subscriber = ViewSubscriber(connectionID: connection.id, subscription: subscription)
        guard let newest = hub.newestModel(of: subscriber, in: key, state: publishedState, version: publishedVersion)
        else { return nil }
        return (newest.version, newest.model.bytes)
    }

    /// Handles `unsubscribe`.
    func unsubscribe(_ connection: ClientConnection, requestID: Int64, subscription: Int64) {
        guard let key = connection.subscriptions.removeValue(forKey: subscription) else {
            refuse(
                .unknownSubscription, "This connection has no subscription \(subscription).", requestID: requestID,
                on: connection)
            return
        }
        hub.unsubscribe(.init(connectionID: connection.id, subscription: subscription), from: key)
        send(.unsubscribed(id: requestID, subscription: subscription), to: connection)
    }

    /// Decodes the params of a subscribe frame as `Model`'s and returns the pair's key and a
    /// way to make its source.
    private static func viewSource<Model: ViewModel<App.State>>(_ type: Model.Type, payload: [UInt8]) throws -> (
        key: ViewKey, make: () -> any ViewSource<App.State>
    ) {
        let params = try WireJSON.decode(SubscribeEnvelope<Model.Params>.self, from: payload).params
        return (
            ViewKey(viewModel: Model.wireName, params: AnyHashable(params)), { TypedViewSource<Model>(params: params) }
        )
    }
}
