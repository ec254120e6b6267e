import Foundation
import Glibc

/// A real `todo web` in front of a bench daemon, on 127.0.0.1 and a port of its choosing:
/// started, its printed URL read for the port and the one-time token, stopped with SIGTERM.
final class TodoWebGateway {
    /// The gateway's process.
    let process: Subprocess
    /// The port it listens on.
    let port: Int
    /// The one-time token of the URL it printed.
    let token: String

    /// Starts `todo web` for `daemon`, with its output in `directory`, and waits for its URL.
    init(_ context: BenchContext, daemon: TodoDaemon, directory: String) throws(BenchError) {
        let process = try Subprocess(
            context.binary("todo"), ["--socket", daemon.socketPath, "web", "--listen", "127.0.0.1:0"],
            environment: ["TODO_NO_AUTOSTART": "1"], outputDirectory: directory)
        self.process = process
        let line = try MonotonicClock.poll("todo web to print its URL", timeout: context.options.readyTimeout) {
            () throws(BenchError) -> String? in
            guard process.isRunning else {
                throw BenchError.process(
                    name: "todo web", reason: "exited at start: \(process.standardError.suffix(2000))")
            }
            let printed = (try? String(contentsOfFile: process.stdoutPath, encoding: .utf8)) ?? ""
            return printed.contains("\n") ? String(printed.prefix { $0 != "\n" }) : nil
        }
        // http://127.0.0.1:PORT/?token=TOKEN
        guard let colon = line.lastIndex(of: ":"), let query = line.range(of: "/?token="),
            let port = Int(line[line.index(after: colon)..<query.lowerBound])
        else {
            throw .unexpectedReply(from: "todo web", reply: line)
        }
        self.port = port
        token = String(line[query.upperBound...])
    }

    /// Stops the gateway with SIGTERM and checks that it exited cleanly.
    func stop() throws(BenchError) {
        process.send(SIGTERM)
        let code = try process.wait(timeout: 60)
        guard code == 0 else {
            throw .process(name: "todo web", reason: "exited with \(code): \(process.standardError.suffix(2000))")
        }
    }
}
