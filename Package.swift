// swift-tools-version:6.0
import PackageDescription

/// How todod's release build is linked, for a smaller resident set (docs/PERFORMANCE.md,
/// figure 12). lld packs the relative relocations (DT_RELR, glibc 2.36 and later), which the
/// loader otherwise reads as 0.9 MB of entries at every start; and it places first, side by
/// side, the functions a running daemon calls (Sources/todod/hot-functions.txt, which
/// scripts/order-functions writes), so that they share pages instead of spreading over the
/// binary's 10 MB of code. A function the list names that no longer exists is passed over.
let daemonReleaseLinkFlags = [
    "-use-ld=lld",
    "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/todod/hot-functions.txt",
    "-Xlinker", "--no-warn-symbol-ordering",
]

let package = Package(
    name: "todo-sync",
    products: [
        .library(name: "SyncDaemon", targets: ["SyncDaemon"]),
        .library(name: "SyncJournal", targets: ["SyncJournal"]),
        // todo-bench's allocation counter, loaded into todod with LD_PRELOAD (figure 2).
        .library(name: "todo-malloc-count", type: .dynamic, targets: ["MallocCount"]),
        .library(name: "SyncClient", targets: ["SyncClient"]),
        .library(name: "SyncStore", targets: ["SyncStore"]),
        .library(name: "SyncProtocol", targets: ["SyncProtocol"]),
        .library(name: "TodoDomain", targets: ["TodoDomain"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "TerminalUITesting", targets: ["TerminalUITesting"]),
        .library(name: "SyncTesting", targets: ["SyncTesting"]),
        .library(name: "SyncTerminalUI", targets: ["SyncTerminalUI"]),
        .library(name: "CommandLineKit", targets: ["CommandLineKit"]),
        .library(name: "ManualPage", targets: ["ManualPage"]),
        .library(name: "SyncCommandLine", targets: ["SyncCommandLine"]),
        .library(name: "SyncIntegrationTesting", targets: ["SyncIntegrationTesting"]),
        .library(name: "SyncWeb", targets: ["SyncWeb"]),
        .executable(name: "todod", targets: ["todod"]),
        .executable(name: "todo", targets: ["todo-cli"]),
        .executable(name: "todo-bench", targets: ["todo-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        // libpq's header (libpq-dev) and libcrypto's SHA-256 (libssl-dev), for the shared log:
        // opened when a daemon first reads a PostgreSQL connection string, not linked (see their
        // shim.h), so that a daemon on SQLite loads neither.
        .systemLibrary(name: "CPQ"),
        .systemLibrary(name: "CCrypto"),
        // <sys/epoll.h>, which Swift's Glibc module leaves out (the benchmark's load generators).
        .systemLibrary(name: "CEpoll"),
        // posix_spawn's close-from file action, which <spawn.h> declares only for GNU sources.
        .systemLibrary(name: "CSpawn"),
        // glibc's allocator settings, which the Glibc module leaves out (the daemon sets them).
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // A pthread-mutex-guarded value shared by the daemon and the client.
        .target(name: "SyncLock"),
        // Where two values differ: the array difference and the changes (`ModelChange`) a JSON
        // Patch is written from. Below the store and the wire format, which both speak it.
        .target(name: "SyncDiff"),
        // Pure state container: actions, view models, side effects. No I/O.
        .target(name: "SyncStore", dependencies: ["SyncDiff", "SyncLock"]),
        // Wire format shared by daemon and clients: frames, messages, error codes, JSON Patch.
        // No libuv.
        .target(name: "SyncProtocol", dependencies: ["SyncDiff"]),
        // Durable storage of accepted actions and snapshots; SQLite is the embedded default,
        // PostgreSQL the log several daemons share.
        .target(name: "SyncJournal", dependencies: ["CSQLite", "CPQ", "CCrypto", "SyncLock"]),
        // The daemon's protocol logic as a pure engine: events in, effects out. No libuv, no
        // sockets, threads or clocks (the journal's value types only from SyncJournal).
        .target(name: "SyncEngine", dependencies: ["SyncJournal", "SyncStore", "SyncProtocol"]),
        // The daemon runtime on libuv, generic over a SyncApp: the shell around the engine.
        .target(
            name: "SyncDaemon",
            dependencies: [
                "CMalloc", "CUV", "ManualPage", "SyncEngine", "SyncJournal", "SyncLock", "SyncStore", "SyncProtocol",
            ]),
        // libwebsockets' header (HTTP and WebSocket for the web gateway, libwebsockets-dev); the
        // library is opened when a gateway starts, not linked (see its shim.h).
        .systemLibrary(name: "CWebSockets"),
        // The client library any program links to dispatch and subscribe.
        .target(name: "SyncClient", dependencies: ["SyncLock", "SyncStore", "SyncProtocol"]),
        // Testing an app without a daemon: TCA's TestStore, a test clock, ids in a fixed sequence.
        .target(name: "SyncTesting", dependencies: ["SyncStore", "SyncLock", "SyncProtocol"]),
        // The todo application: state, actions, view models, side effects.
        .target(name: "TodoDomain", dependencies: ["SyncStore", "SyncProtocol"]),
        // Terminal MVVM: cell grid, display width, diff renderer, keys, ModellableView, Screen,
        // navigation and containment, the terminal session. Knows nothing of the daemon.
        .target(name: "TerminalUI"),
        // Snapshot tests of terminal views (TempuraTesting's idea) and a fake terminal.
        .target(name: "TerminalUITesting", dependencies: ["TerminalUI", "SyncLock"]),
        // The web gateway for any app: a page's static files over HTTP and its allowlisted view
        // models and actions over WebSocket (libwebsockets), as a client of the daemon.
        // It ships the page protocol's JavaScript modules (gateway.js, patch.js) every page imports.
        .target(
            name: "SyncWeb",
            dependencies: [
                "CommandLineKit", "CWebSockets", "SyncClient", "SyncCommandLine", "SyncLock", "SyncProtocol", "SyncStore",
            ],
            resources: [.embedInCode("Page/gateway.js"), .embedInCode("Page/patch.js")]),
        // The todo page (HTML, CSS, JavaScript modules, embedded in the binary) and its allowlist.
        .target(
            name: "TodoWeb", dependencies: ["SyncWeb", "TodoDomain"],
            resources: [
                .embedInCode("Page/index.html"), .embedInCode("Page/style.css"), .embedInCode("Page/app.js"),
                .embedInCode("Page/items.js"),
            ]),
        // The adapter from SyncClient to TerminalUI: feeds of view models and of the connection
        // state, and the dispatch a screen store sends actions through.
        .target(name: "SyncTerminalUI", dependencies: ["SyncClient", "SyncProtocol", "SyncStore", "TerminalUI"]),
        // Command-table CLI machinery: commands as data, --help, completions, exit codes, --json.
        .target(name: "CommandLineKit", dependencies: ["ManualPage", "SyncProtocol", "TerminalUI"]),
        // Manual pages as data, written as roff: the CLIs' and the daemons' come from their tables.
        .target(name: "ManualPage"),
        // An app's client command line: the standard --socket and --no-autostart, autostart, the
        // reconnect policy, client errors as exit codes, the tui command; over CommandLineKit.
        .target(
            name: "SyncCommandLine",
            dependencies: ["CommandLineKit", "SyncClient", "SyncProtocol", "SyncStore", "TerminalUI"]),
        // The todo screens and views of `todo tui`, and the todo store over SyncTerminalUI.
        .target(
            name: "TodoTUI",
            dependencies: ["TerminalUI", "SyncClient", "SyncProtocol", "SyncStore", "SyncTerminalUI", "TodoDomain"]),
        .executableTarget(
            name: "todod", dependencies: ["SyncDaemon", "TodoDomain"], exclude: ["hot-functions.txt"],
            linkerSettings: [.unsafeFlags(daemonReleaseLinkFlags, .when(configuration: .release))]),
        .executableTarget(
            name: "todo-cli",
            dependencies: [
                "CommandLineKit", "SyncClient", "SyncCommandLine", "SyncProtocol", "SyncStore", "SyncWeb", "TerminalUI",
                "TodoDomain", "TodoTUI", "TodoWeb",
            ]),
        // The benchmark: drives the real todod (and Redis) and prints the figures (docs/PERFORMANCE.md).
        .executableTarget(
            name: "todo-bench",
            dependencies: [
                "CEpoll", "ProcessSpawn", "SyncClient", "SyncJournal", "SyncLock", "SyncProtocol", "SyncStore",
                "TodoDomain",
            ]),
        // Counts the allocations of the process it is preloaded into (todo-bench, figure 2).
        .target(name: "MallocCount"),
        // The conformance kit's adapter for SyncClient (conformance/README.md): JSON lines on
        // stdin and stdout, so that conformance/run drives SyncClient as it drives any client.
        .executableTarget(
            name: "sync-conformance-adapter", dependencies: ["SyncClient", "SyncLock", "SyncProtocol"]),
        // Starting child processes with a clean signal mask and captured output (tests, benchmark).
        .target(name: "ProcessSpawn", dependencies: ["CSpawn"]),
        // An app's tests against its real binaries: the daemon on a private socket and data
        // directory, the built executables found and run, stopped by pid.
        .target(name: "SyncIntegrationTesting", dependencies: ["ProcessSpawn", "SyncLock", "SyncProtocol", "SyncStore"]),
        // Helpers for tests that run the real binaries: child processes and a raw wire client.
        .target(
            name: "TestSupport", dependencies: ["ProcessSpawn", "SyncIntegrationTesting", "SyncProtocol", "SyncStore"],
            path: "Tests/TestSupport"),
        // What the integration test targets share: a cluster of daemons on a private PostgreSQL,
        // numbered writers, journal files read directly, models followed and recorded.
        .target(
            name: "IntegrationTestSupport",
            dependencies: ["CSQLite", "SyncProtocol", "SyncStore", "TestSupport", "TodoDomain"],
            path: "Tests/IntegrationTestSupport"),
        .testTarget(name: "SyncProtocolTests", dependencies: ["SyncProtocol", "TestSupport"]),
        .testTarget(
            name: "SyncDaemonTests",
            dependencies: ["CUV", "SyncDaemon", "SyncEngine", "SyncLock", "SyncProtocol", "SyncStore", "TestSupport"]),
        .testTarget(
            name: "SyncEngineTests",
            dependencies: [
                "SyncEngine", "SyncJournal", "SyncLock", "SyncProtocol", "SyncStore", "SyncTesting", "TestSupport",
            ]),
        .testTarget(name: "SyncJournalTests", dependencies: ["SyncJournal", "SyncLock", "TestSupport"]),
        .testTarget(name: "SyncStoreTests", dependencies: ["SyncStore", "SyncProtocol", "TestSupport"]),
        .testTarget(
            name: "TodoDomainTests",
            dependencies: ["TodoDomain", "SyncStore", "SyncProtocol", "SyncTesting", "TestSupport"]),
        .testTarget(name: "SyncTestingTests", dependencies: ["SyncTesting", "SyncStore"]),
        .testTarget(name: "SyncClientTests", dependencies: ["SyncClient"]),
        .testTarget(name: "SyncWebTests", dependencies: ["SyncWeb", "SyncProtocol", "TodoDomain"]),
        .testTarget(
            name: "TerminalUITests", dependencies: ["SyncLock", "TerminalUI", "TerminalUITesting", "TestSupport"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit", "ManualPage"]),
        .testTarget(
            name: "SyncCommandLineTests",
            dependencies: ["CommandLineKit", "SyncClient", "SyncCommandLine", "SyncStore"]),
        .testTarget(
            name: "TodoTUITests",
            dependencies: [
                "TodoTUI", "TerminalUI", "TerminalUITesting", "TestSupport", "SyncClient", "SyncProtocol", "SyncStore",
                "SyncTerminalUI", "TodoDomain",
            ],
            exclude: ["__Snapshots__"]
        ),
        // The real binaries driven from outside, in two targets that compile side by side: the
        // wire, the clients, the features, the service and the web gateway; and the journal
        // (a damaged or full disk, migrations, crashes) and the shared log in PostgreSQL.
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "IntegrationTestSupport", "TestSupport", "SyncClient", "SyncStore", "TodoDomain", "SyncProtocol",
                "SyncIntegrationTesting",
            ],
            exclude: ["Web/Scripts"]
        ),
        .testTarget(
            name: "JournalIntegrationTests",
            dependencies: [
                "IntegrationTestSupport", "TestSupport", "SyncLock", "SyncStore", "TodoDomain", "SyncProtocol",
                "SyncJournal", "ProcessSpawn",
            ],
            exclude: ["Durability/Fixtures", "SharedLog/Fixtures"]
        ),
    ]
)

/// The test targets a build has: every one, or only those `TODO_SYNC_TEST_TARGETS` names
/// (comma-separated). scripts/test's ThreadSanitizer pass runs the suites of nine targets and
/// names those, so that it does not compile the others' tests (pure value code, which the plain
/// and AddressSanitizer passes and the fuzzers run).
if let names = Context.environment["TODO_SYNC_TEST_TARGETS"], !names.isEmpty {
    let kept = Set(names.split(separator: ",").map(String.init))
    let unknown = kept.subtracting(package.targets.filter { $0.type == .test }.map(\.name))
    guard unknown.isEmpty else { fatalError("TODO_SYNC_TEST_TARGETS: no test target \(unknown.sorted())") }
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
}
