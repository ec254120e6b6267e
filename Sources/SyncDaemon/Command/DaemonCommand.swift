import Glibc
import SyncJournal
import SyncProtocol
import SyncStore

/// An app's daemon executable in one call: parses the standard options and the app's own,
/// prints `--help` and `--version`, and serves until SIGTERM.
///
/// ```swift
/// DaemonCommand<TodoApp>(summary: "Serves the todo list.").run()
/// ```
///
/// Exit status: 0 after a clean stop, 1 when the daemon cannot start, 2 for a usage error,
/// 70 when a commit may or may not be on disk (the next start recovers what the disk holds).
public struct DaemonCommand<App: SyncApp> {
    /// The app's names (`App.identity` unless the command was given others).
    public let identity: AppIdentity
    /// One sentence for `--help` saying what the daemon serves.
    public let summary: String
    /// The app's own options, listed in `--help` after the standard ones.
    public let appOptions: [DaemonOption]
    /// The long-running side effects to run, from the parsed command line (the app's options).
    public let sideEffects: (DaemonArguments) throws(DaemonUsageError) -> [any SideEffect<App.State, App.Dependencies>]
    /// The durable schedules, from the parsed command line (the app's options).
    public let schedules: (DaemonArguments) throws(DaemonUsageError) -> [any Schedule<App.State>]
    /// What acceptance and every side effect are given: the clock, the ids, the app's own.
    public let dependencies: App.Dependencies

    /// A daemon command for `App` (named by `App.identity` unless `identity` is given) whose side
    /// effects get `dependencies`.
    public init(
        identity: AppIdentity = App.identity, summary: String, appOptions: [DaemonOption] = [],
        dependencies: App.Dependencies,
        sideEffects:
            @escaping (DaemonArguments) throws(DaemonUsageError) -> [any SideEffect<App.State, App.Dependencies>] = {
                _ in []
            },
        schedules: @escaping (DaemonArguments) throws(DaemonUsageError) -> [any Schedule<App.State>] = { _ in [] }
    ) {
        self.schedules = schedules
        self.identity = identity
        self.summary = summary
        self.appOptions = appOptions
        self.dependencies = dependencies
        self.sideEffects = sideEffects
    }

    /// Runs the daemon as `arguments` (without the program name) say and exits.
    public func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        let label = identity.daemonName
        func fail(_ error: DaemonUsageError) -> Never {
            Logger(label: label).log(.error, "\(error); see \(label) --help")
            exit(2)
        }
        let parsed: DaemonArguments
        let configuration: DaemonConfiguration
        let effects: [any SideEffect<App.State, App.Dependencies>]
        let scheduled: [any Schedule<App.State>]
        do throws(DaemonUsageError) {
            parsed = try DaemonArguments(parsing: arguments, appOptions: appOptions)
            switch parsed.request {
            case .help:
                print(DaemonHelp.text(identity: identity, summary: summary, appOptions: appOptions), terminator: "")
                exit(0)
            case .manual:
                print(
                    DaemonHelp.manualPage(identity: identity, summary: summary, appOptions: appOptions).roff,
                    terminator: "")
                exit(0)
            case .version:
                print("\(identity.daemonName) \(identity.version) (protocol \(WireProtocol.version))")
                exit(0)
            case .serve, .prepareSchema:
                break
            }
            configuration = try parsed.configuration(
                of: identity, environment: Self.environment(identity), userID: getuid())
            if parsed.request == .prepareSchema { Self.prepareSchema(configuration, logLevel: parsed.logLevel) }
            effects = try sideEffects(parsed)
            scheduled = try schedules(parsed)
        } catch {
            fail(error)
        }
        let logger = Logger(label: label, minimumLevel: parsed.logLevel)
        do {
            try Daemon<App>(
                configuration: configuration, dependencies: dependencies, sideEffects: effects,
                schedules: scheduled, logger: logger
            ).run()
        } catch DaemonError.uncertainCommit(let reason) {
            logger.log(.error, DaemonError.uncertainCommit(reason: reason).description)
            exit(70)
        } catch {
            logger.log(.error, "cannot start: \(error)")
            exit(1)
        }
        exit(0)
    }

    /// `--prepare-schema`: creates or migrates the shared log's schema and exits (0, or 1 with
    /// the reason; 2 without `--postgres`).
    private static func prepareSchema(_ configuration: DaemonConfiguration, logLevel: Logger.Level) -> Never {
        let logger = Logger(label: configuration.identity.daemonName, minimumLevel: logLevel)
        guard let conninfo = configuration.postgres else {
            logger.log(
                .error, "--prepare-schema needs --postgres CONNINFO; see \(configuration.identity.daemonName) --help")
            exit(2)
        }
        let schema = SharedLogSchema(daemonName: configuration.identity.daemonName)
        do {
            let old = try PostgresJournal.prepareSchema(
                conninfo: conninfo, schema: schema, applicationName: configuration.serverName)
            let target = (try? PostgresTarget.parse(conninfo).get().description) ?? "the database"
            let change =
                old.map { "migrated from version \($0) to \(SharedLogSchema.schemaVersion)" }
                ?? "at version \(SharedLogSchema.schemaVersion)"
            logger.log(.info, "the shared log's schema (\(schema.prefix)_*) in \(target) is \(change)")
            exit(0)
        } catch {
            logger.log(.error, "cannot prepare the schema: \(error)")
            exit(1)
        }
    }

    private static func environment(_ identity: AppIdentity) -> [String: String] {
        var environment: [String: String] = [:]
        for name in identity.environmentVariables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}
