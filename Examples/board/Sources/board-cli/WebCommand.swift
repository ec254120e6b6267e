import BoardDomain
import BoardWeb
import CommandLineKit
import Glibc
import SyncCommandLine
import SyncWeb

extension Command {
    /// `board web [--listen ADDR:PORT] [--allow-remote] [--public-origin URL]...`
    static let web = Command(
        name: "web", arguments: WebOptions.usage,
        summary: "Serve the live board to a browser; prints the URL to open.",
        details: """
            Prints one line on standard output, the URL to open, with a one-time token that the
            browser exchanges for a session cookie. Serves until SIGINT or SIGTERM; progress and
            errors go to standard error. The page shows the board live and adds, moves and
            archives cards; after a daemon restart it reconnects and catches up by itself.

            """ + WebOptions.help,
        run: { context, arguments throws(CLIError) in
            let options: WebOptions
            do throws(WebOptionsError) {
                options = try WebOptions(parsing: arguments)
            } catch {
                throw .usage("web: \(error.description)")
            }
            let client = try await context.connect(to: BoardApp.self, reconnect: .automatic)
            let configuration = WebGatewayConfiguration(
                identity: BoardApp.identity, allowlist: BoardWeb.allowlist, page: BoardWeb.page,
                listen: options.listen, publicOrigins: options.publicOrigins)
            let gateway: WebGateway
            do throws(WebGatewayError) {
                gateway = try WebGateway.start(configuration, client: client)
                try gateway.stop(onSignals: [SIGINT, SIGTERM])
            } catch {
                throw .environment("web: \(error.description)")
            }
            context.tool.printError("serving the board on http://\(gateway.address)/ (Ctrl-C stops)")
            StandardStream.output.write(gateway.url + "\n")
            await gateway.finished()
            context.tool.printError("stopped")
        })
}
