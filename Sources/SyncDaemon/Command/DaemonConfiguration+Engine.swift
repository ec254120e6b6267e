import SyncEngine

extension DaemonConfiguration {
    /// What the engine is told of this configuration (the journal's kind and location are
    /// filled in once it is open).
    var engineConfiguration: EngineConfiguration {
        var engine = EngineConfiguration(
            serverName: serverName, daemonName: identity.daemonName, appName: identity.name, hostName: hostName,
            maximumFrameLength: maximumFrameLength)
        engine.softQueueLimit = softQueueLimit
        engine.hardQueueLimit = hardQueueLimit
        engine.maximumSubscriptionsPerConnection = maximumSubscriptionsPerConnection
        engine.maximumSideEffectsPerConnection = maximumSideEffectsPerConnection
        engine.maximumSideEffects = maximumSideEffects
        engine.maximumReplayedActions = maximumReplayedActions
        engine.maximumConcurrentRebuilds = maximumConcurrentRebuilds
        engine.maximumWaitingRebuilds = maximumWaitingRebuilds
        return engine
    }
}
