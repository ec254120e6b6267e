import SyncStore

extension Daemon where App.Dependencies == StandardDependencies {
    /// A daemon with the live clock and random ids (`StandardDependencies()`).
    public convenience init(configuration: DaemonConfiguration, sideEffects: [any SideEffect<App.State, App.Dependencies>] = [], logger: Logger) {
        self.init(configuration: configuration, dependencies: StandardDependencies(), sideEffects: sideEffects, logger: logger)
    }
}
