import SyncStore

extension DaemonCommand where App.Dependencies == StandardDependencies {
    /// A daemon command for `App` with the live clock and random ids (`StandardDependencies()`).
    public init(
        identity: AppIdentity, summary: String, appOptions: [DaemonOption] = [],
        sideEffects:
            @escaping (DaemonArguments) throws(DaemonUsageError) -> [any SideEffect<App.State, App.Dependencies>] = {
                _ in []
            }
    ) {
        self.init(
            identity: identity, summary: summary, appOptions: appOptions, dependencies: StandardDependencies(),
            sideEffects: sideEffects)
    }
}

extension Daemon where App.Dependencies == StandardDependencies {
    /// A daemon with the live clock and random ids (`StandardDependencies()`).
    public convenience init(
        configuration: DaemonConfiguration, sideEffects: [any SideEffect<App.State, App.Dependencies>] = [],
        logger: Logger
    ) {
        self.init(
            configuration: configuration, dependencies: StandardDependencies(), sideEffects: sideEffects, logger: logger
        )
    }
}
