import Foundation
import SyncProtocol

// The conformance kit's adapter for SyncClient (conformance/README.md): one JSON request per
// line on standard input, one JSON reply or event per line on standard output. Each request
// runs as a task of its own, so a side effect that waits does not hold up the requests that
// end it; at the end of input the adapter waits for them, closes its clients and exits.

let output = AdapterOutput()
let session = AdapterSession(output: output)
let lines = AsyncStream<[UInt8]> { continuation in
    let reader = Thread {
        while let line = readLine(strippingNewline: true) {
            if !line.isEmpty { continuation.yield(Array(line.utf8)) }
        }
        continuation.finish()
    }
    reader.start()
}

await withTaskGroup(of: Void.self) { group in
    for await line in lines {
        do throws(AdapterError) {
            let request = try AdapterRequest(line: line)
            group.addTask { await session.handle(request) }
        } catch {
            output.write(["id": .null, "error": error.json])
        }
    }
}
await session.finish()
exit(0)
