import SyncDaemon
import SyncStore
import Testing

/// An app whose identity is all a daemon command needs to know of it.
private enum ShelfApp: SyncApp {
    static let identity = AppIdentity(name: "shelf", version: "3.1.0")
    static let initialState = 0
    static let actions: [any Action<Int>.Type] = []
    static let viewModels: [any ViewModel<Int>.Type] = []
}

/// The daemon command takes the app's identity from the app type, and asks for its manual page.
@Suite struct DaemonCommandIdentityTests {
    @Test func theIdentityComesFromTheAppUnlessGiven() {
        #expect(DaemonCommand<ShelfApp>(summary: "Serves shelves.").identity == ShelfApp.identity)
        let other = AppIdentity(name: "rack", version: "1.0.0")
        #expect(DaemonCommand<ShelfApp>(identity: other, summary: "Serves racks.").identity == other)
    }

    @Test func manualAsksForTheManualPage() throws {
        #expect(try DaemonArguments(parsing: ["--manual"]).request == .manual)
        #expect(DaemonArguments.standardOptions.map(\.name).suffix(3) == ["--help", "--version", "--manual"])
    }
}
