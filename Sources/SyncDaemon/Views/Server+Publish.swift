/// Publishing, a step of the end of the pass: the durable state becomes the one clients see,
/// and every subscriber whose model changed gets an update queued on its connection.
extension Server {
    /// Shows the durable state, if it is newer than the one published, to the side effects
    /// (`mirror`) and to the subscribers (`hub`).
    func publish() {
        let version = writer.durableVersion
        guard version != publishedVersion else { return }
        publishedState = durableState
        publishedVersion = version
        mirror.publish(state: publishedState, version: version)
        hub.publish(publishedState, version: version) { subscriber, change in
            sessions[subscriber.connectionID]?.connection.enqueueUpdate(
                change, subscription: subscriber.subscription, version: version) ?? false
        }
    }
}
