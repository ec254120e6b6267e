// swift-tools-version:6.0
import PackageDescription

// A program outside the project that links SyncClient, as any app would: it depends on the
// project by path. scripts/test builds it so the library stays usable from outside.
let package = Package(
    name: "Examples",
    dependencies: [.package(name: "todo-sync", path: "..")],
    targets: [
        .executableTarget(
            name: "open-count",
            dependencies: [
                .product(name: "SyncClient", package: "todo-sync"),
                .product(name: "SyncStore", package: "todo-sync"),
                .product(name: "TodoDomain", package: "todo-sync"),
            ])
    ]
)
