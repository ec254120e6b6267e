import CommandLineKit
import SyncProtocol
import SyncStore

extension CommandLineTool {
    /// The command line of `App`'s client: named and versioned by `App.identity`
    /// (`board 0.1.0 (protocol 3)`), with the standard client options (`ClientOptions`) before
    /// any of the tool's own; `summary` is the line of its manual page.
    public init<App: SyncApp>(
        app: App.Type, summary: String, options: [GlobalOption] = [], commands: [Command], epilogue: String = ""
    ) {
        let identity = App.identity
        self.init(
            name: identity.name, version: "\(identity.name) \(identity.version) (protocol \(WireProtocol.version))",
            summary: summary,
            options: ClientOptions.standard(for: identity) + options, commands: commands, epilogue: epilogue)
    }
}
