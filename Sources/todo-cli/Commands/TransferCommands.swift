import CommandLineKit
import Glibc
import SyncClient
import SyncCommandLine
import SyncProtocol
import SyncStore
import TodoDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Command {
    /// `todo export [--json]`
    static let export = Command(
        name: "export", arguments: "[--json]", summary: "Write every item, with all its fields, as JSON.",
        details: """
            The document is {"items":[{"completed":B,"completedAt":MS?,"createdAt":MS,"id":UUID,"number":N,"text":T},...]}
            (keys sorted), pretty-printed; --json writes it as one line. `todo import` takes it back.
            """,
        run: { context, arguments throws(CLIError) in
            let parsed = try CommandArguments(
                arguments, command: "export", flags: Arguments.filterFlags.union(["--json"]))
            try Arguments.none(parsed, command: "export")
            guard try Arguments.filter(parsed, command: "export") == .all else {
                throw .usage("export writes every item; it takes no filter")
            }
            let update = try await context.withClient(TodoApp.self) { client throws(SyncClientError) in
                try await client.get(ExportViewModel.self, params: NoParams())
            }
            guard let model = update.model else { throw .rejected("the daemon sent no items") }
            let encoder = WireJSON.makeEncoder()
            if !parsed.isSet("--json") { encoder.outputFormatting.insert(.prettyPrinted) }
            do {
                Output.out(String(decoding: try encoder.encode(model), as: UTF8.self) + "\n")
            } catch {
                throw .rejected("cannot encode the items: \(error)")
            }
        })

    /// `todo import FILE`
    static let importItems = Command(
        name: "import", arguments: "FILE", summary: "Add back the items of a file written by `todo export`.",
        details: """
            Items are matched by id: those already present are skipped, so importing twice changes
            nothing. A new item keeps its number unless that number was already given out here.
            Items go in groups of \(importGroupSize), each added whole or not at all.
            """,
        run: { context, arguments throws(CLIError) in
            guard arguments.count == 1, let path = arguments.first else { throw .usage("import needs one file") }
            let items = try readExport(path)
            let added = try await context.withClient(TodoApp.self) { client throws(SyncClientError) -> Int in
                let before = try await client.get(ExportViewModel.self, params: NoParams()).model?.items.map(\.id) ?? []
                for start in stride(from: 0, to: items.count, by: importGroupSize) {
                    _ = try await client.dispatch(
                        ImportItems(items: Array(items[start..<min(start + importGroupSize, items.count)])))
                }
                return Set(items.map(\.id)).subtracting(before).count
            }
            Output.out("imported \(added) new item\(added == 1 ? "" : "s") (\(items.count - added) already present)\n")
        })

    /// Where a decoding error is, in a few words.
    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context):
            return
                "no \"\(key.stringValue)\" at \(context.codingPath.map(\.stringValue).joined(separator: ".").ifEmpty("the top"))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not valid JSON" : "\"\(path)\" has the wrong type or value"
        default:
            return String(describing: error)
        }
    }

    /// Items per `import` action: well under the daemon's default frame limit.
    static let importGroupSize = 200

    private static func readExport(_ path: String) throws(CLIError) -> [TodoItem] {
        let descriptor = path == "-" ? dup(0) : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .usage("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .usage("cannot read \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        do {
            return try WireJSON.decode(ExportViewModel.self, from: bytes).items
        } catch {
            throw .usage("\(path) is not a file written by `todo export` (\(Self.describe(error)))")
        }
    }
}
