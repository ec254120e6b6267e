// swift-tools-version:6.0
import PackageDescription

// The kanban board: a second app built on the project from outside it, depending on it by path
// and using only its library products.
let package = Package(
    name: "board",
    products: [
        .executable(name: "boardd", targets: ["boardd"]),
        .executable(name: "board", targets: ["board-cli"]),
    ],
    dependencies: [.package(name: "todo-sync", path: "../..")],
    targets: [
        // The board: state, actions, the work-in-progress rule, undo, view models, the sweep.
        .target(
            name: "BoardDomain",
            dependencies: [
                .product(name: "SyncStore", package: "todo-sync")
            ]),
        // The board screen on TerminalUI, and the adapter from SyncClient to it.
        .target(
            name: "BoardTUI",
            dependencies: [
                "BoardDomain",
                .product(name: "SyncClient", package: "todo-sync"),
                .product(name: "SyncStore", package: "todo-sync"),
                .product(name: "SyncTerminalUI", package: "todo-sync"),
                .product(name: "TerminalUI", package: "todo-sync"),
            ]),
        // The board's page (HTML, CSS, a JavaScript module, embedded in the binary) and its
        // allowlist, for SyncWeb's gateway.
        .target(
            name: "BoardWeb",
            dependencies: [
                "BoardDomain",
                .product(name: "SyncWeb", package: "todo-sync"),
            ],
            resources: [.embedInCode("Page/index.html"), .embedInCode("Page/style.css"), .embedInCode("Page/board.js")]),
        // The board daemon: the framework's standard daemon command for BoardApp.
        .executableTarget(
            name: "boardd",
            dependencies: [
                "BoardDomain",
                .product(name: "SyncDaemon", package: "todo-sync"),
            ]),
        // The `board` command line on SyncCommandLine: show, add, move, sweep, tui, web, completions, manual.
        .executableTarget(
            name: "board-cli",
            dependencies: [
                "BoardDomain", "BoardTUI", "BoardWeb",
                .product(name: "SyncWeb", package: "todo-sync"),
                .product(name: "CommandLineKit", package: "todo-sync"),
                .product(name: "SyncClient", package: "todo-sync"),
                .product(name: "SyncCommandLine", package: "todo-sync"),
                .product(name: "SyncStore", package: "todo-sync"),
                .product(name: "TerminalUI", package: "todo-sync"),
            ]),
        .testTarget(
            name: "BoardDomainTests",
            dependencies: [
                "BoardDomain",
                .product(name: "SyncStore", package: "todo-sync"),
                .product(name: "SyncTesting", package: "todo-sync"),
            ]),
        // Runs the real boardd and board.
        .testTarget(
            name: "BoardCLITests",
            dependencies: [
                "BoardDomain", "boardd", "board-cli",
                .product(name: "todod", package: "todo-sync"),
                .product(name: "todo", package: "todo-sync"),
                .product(name: "SyncIntegrationTesting", package: "todo-sync"),
            ]),
        .testTarget(
            name: "BoardTUITests",
            dependencies: [
                "BoardDomain", "BoardTUI",
                .product(name: "SyncClient", package: "todo-sync"),
                .product(name: "SyncStore", package: "todo-sync"),
                .product(name: "SyncTerminalUI", package: "todo-sync"),
                .product(name: "TerminalUI", package: "todo-sync"),
                .product(name: "TerminalUITesting", package: "todo-sync"),
            ],
            exclude: ["__Snapshots__"]
        ),
    ]
)
