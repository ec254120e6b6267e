import SyncClient
import SyncStore
import TodoDomain

/// Prints a line whenever the number of open items changes, until the daemon goes away.
let client = try await SyncClient.connect(to: TodoApp.identity, clientName: "open-count/1.0")
var lastCount: Int?
for try await update in client.subscribe(SummaryViewModel.self, params: NoParams()) {
    guard let count = update.model?.openCount, count != lastCount else { continue }
    lastCount = count
    print("\(count) open (version \(update.version))")
}
