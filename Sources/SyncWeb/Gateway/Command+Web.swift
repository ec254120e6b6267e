import CommandLineKit
import Glibc
import SyncCommandLine
import SyncStore

extension Command {
    /// An app's `web` command (`todo web`, `board web`): connects to `App`'s daemon, serves
    /// `page` with `allowlist` through a `WebGateway` until SIGINT or SIGTERM, and prints one
    /// line on standard output, the URL to open. `shows` names what the page shows (`list`), for
    /// the help and the progress line; `details` is the help's text about the page.
    public static func webGateway<App: SyncApp>(
        of app: App.Type, shows: String, allowlist: WebAllowlist, page: WebPage, details: String
    ) -> Command {
        Command(
            name: "web", arguments: WebOptions.usage,
            summary: "Serve the live \(shows) to a browser; prints the URL to open.",
            details: """
                Prints one line on standard output, the URL to open, with a one-time token that the
                browser exchanges for a session cookie. Serves until SIGINT or SIGTERM; progress and
                errors go to standard error.
                \(details)

                """ + WebOptions.help,
            run: { context, arguments throws(CLIError) in
                let options: WebOptions
                do throws(WebOptionsError) {
                    options = try WebOptions(parsing: arguments)
                } catch {
                    throw .usage("web: \(error.description)")
                }
                let client = try await context.connect(to: App.self, reconnect: .automatic)
                let configuration = WebGatewayConfiguration(
                    identity: App.identity, allowlist: allowlist, page: page, listen: options.listen,
                    publicOrigins: options.publicOrigins)
                let gateway: WebGateway
                do throws(WebGatewayError) {
                    gateway = try WebGateway.start(configuration, client: client)
                    try gateway.stop(onSignals: [SIGINT, SIGTERM])
                } catch {
                    throw .environment("web: \(error.description)")
                }
                context.tool.printError("serving the \(shows) on http://\(gateway.address)/ (Ctrl-C stops)")
                StandardStream.output.write(gateway.url + "\n")
                await gateway.finished()
                context.tool.printError("stopped")
            })
    }
}
