import CommandLineKit
import Glibc
import SyncClient
import SyncCommandLine
import SyncWeb
import TodoDomain
import TodoWeb

extension Command {
    /// `todo web [--listen ADDR:PORT] [--allow-remote] [--public-origin URL]...`
    static let web = Command(
        name: "web", arguments: WebOptions.usage,
        summary: "Serve the live list to a browser; prints the URL to open.",
        details: """
            Prints one line on standard output, the URL to open, with a one-time token that the
            browser exchanges for a session cookie. Serves until SIGINT or SIGTERM; progress and
            errors go to standard error. The page shows the list live and makes the changes
            todo tui makes; after a daemon restart it reconnects and catches up by itself.

            """ + WebOptions.help,
        run: { context, arguments throws(CLIError) in
            let options: WebOptions
            do throws(WebOptionsError) {
                options = try WebOptions(parsing: arguments)
            } catch {
                throw .usage("web: \(error.description)")
            }
            let client = try await context.connect(to: TodoApp.self, reconnect: .automatic)
            let configuration = WebGatewayConfiguration(
                identity: TodoApp.identity, allowlist: TodoWeb.allowlist, page: TodoWeb.page, listen: options.listen,
                publicOrigins: options.publicOrigins)
            let gateway: WebGateway
            do throws(WebGatewayError) {
                gateway = try WebGateway.start(configuration, client: client)
                try gateway.stop(onSignals: [SIGINT, SIGTERM])
            } catch {
                throw .environment("web: \(error.description)")
            }
            Output.error("serving the list on http://\(gateway.address)/ (Ctrl-C stops)")
            Output.out(gateway.url + "\n")
            await gateway.finished()
            Output.error("stopped")
        })
}
