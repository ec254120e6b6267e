extension Command {
    /// `todo status`
    static let status = Command(
        name: "status", arguments: "", summary: "Show the daemon's name, protocol, current state version and socket.", details: "",
        run: { context, arguments throws(CLIError) in
            guard arguments.isEmpty else { throw .usage("status takes no arguments") }
            let client = try await context.connect()
            defer { client.close() }
            Output.out("""
                server: \(client.server.name)
                protocol: \(client.server.protocolVersion)
                version: \(client.server.version)
                socket: \(client.socketPath)

                """)
        })
}
