import SyncStore

extension DaemonCommand where App.Dependencies == StandardDependencies {
    /// A daemon command for `App` (named by `App.identity` unless `identity` is given) with the
    /// live clock and random ids (`StandardDependencies()`).
    public init(
        identity: AppIdentity = App.identity, summary: String, appOptions: [DaemonOption] = [],
        sideEffects:
            @escaping (DaemonArguments) throws(DaemonUsageError) -> [any SideEffect<App.State, App.Dependencies>] = {
                _ in []
            },
        schedules: @escaping (DaemonArguments) throws(DaemonUsageError) -> [any Schedule<App.State>] = { _ in [] }
    ) {
        self.init(
            identity: identity, summary: summary, appOptions: appOptions, dependencies: StandardDependencies(),
            sideEffects: sideEffects, schedules: schedules)
    }
}

extension Daemon where App.Dependencies == StandardDependencies {
    /// A daemon with the live clock and random ids (`StandardDependencies()`).
    public convenience init(
        configuration: DaemonConfiguration, sideEffects: [any SideEffect<App.State, App.Dependencies>] = [],
        schedules: [any Schedule<App.State>] = [], logger: Logger
    ) {
        self.init(
            configuration: configuration, dependencies: StandardDependencies(), sideEffects: sideEffects,
            schedules: schedules, logger: logger)
    }
}
