// swift-tools-version:6.0
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer), one executable each, built only by scripts/fuzz:
//   swift build --package-path Fuzz -c release --sanitize=fuzzer --sanitize=address -Xswiftc -enable-testing
// A package of its own, depending on the project by path, so that the project's own builds and
// test runs never see the fuzzer flags. Each target defines `LLVMFuzzerTestOneInput`;
// libFuzzer's runtime brings `main`, so the targets only link with `--sanitize=fuzzer`.
let package = Package(
    name: "Fuzz",
    dependencies: [.package(name: "todo-sync", path: "..")],
    targets: [
        // What several targets share: a strict JSON reader written independently of the
        // project's (the reference of the differential targets), values built from fuzz bytes,
        // and the check that turns a broken property into a crash libFuzzer records.
        .target(name: "FuzzSupport", dependencies: [.product(name: "SyncProtocol", package: "todo-sync")]),
        .executableTarget(name: "fuzz-frame-decoder", dependencies: ["FuzzSupport", .product(name: "SyncProtocol", package: "todo-sync")]),
        .executableTarget(name: "fuzz-request", dependencies: ["FuzzSupport", .product(name: "SyncProtocol", package: "todo-sync")]),
        .executableTarget(name: "fuzz-plain-json", dependencies: [
            "FuzzSupport", .product(name: "SyncProtocol", package: "todo-sync"), .product(name: "TodoDomain", package: "todo-sync"),
        ]),
        .executableTarget(name: "fuzz-json-patch", dependencies: ["FuzzSupport", .product(name: "SyncProtocol", package: "todo-sync")]),
        .executableTarget(name: "fuzz-key-decoder", dependencies: ["FuzzSupport", .product(name: "TerminalUI", package: "todo-sync")]),
        .executableTarget(name: "fuzz-journal-replay", dependencies: [
            "FuzzSupport", .product(name: "SyncProtocol", package: "todo-sync"), .product(name: "SyncStore", package: "todo-sync"),
            .product(name: "TodoDomain", package: "todo-sync"),
        ]),
    ]
)
