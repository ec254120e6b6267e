import CUV
import Glibc
import SyncJournal

/// Runs a `SharedLogListener` on a thread of its own and brings what it sees to the loop
/// thread: a new head (other daemons appended), the database going away or coming back, and
/// the leader lock won or lost. Loop-confined itself; not `Sendable`.
///
/// ```
/// listener thread: poll (LISTEN, head every second, leader lock) ─changed─▶ inbox ─▶ onChange (loop)
/// ```
final class SharedLogWatcher {
    /// How long one poll waits for news; `stop()` waits for the poll in progress, which a
    /// database that stopped answering can stretch to its calls' deadlines (a few seconds).
    static var pollMilliseconds: Int { 200 }

    private let thread: InboxThread<SharedLogObservation>

    /// A watcher of the log of `schema` in the database of `conninfo` whose news reach
    /// `onChange` on the loop thread; it competes for the leader lock if `wantsLeadership`.
    init(
        loop: UnsafeMutablePointer<uv_loop_t>, conninfo: String, schema: SharedLogSchema, applicationName: String,
        wantsLeadership: Bool,
        onChange: @escaping (SharedLogObservation) -> Void
    ) throws(DaemonError) {
        thread = try InboxThread(loop: loop, subject: "the shared log's listener thread", onReceive: onChange) {
            sender, isStopping in
            let listener = SharedLogListener(
                conninfo: conninfo, schema: schema, applicationName: applicationName, wantsLeadership: wantsLeadership)
            var last: SharedLogObservation?
            var polls = 0
            while !isStopping() {
                let observation = listener.poll(timeoutMilliseconds: Self.pollMilliseconds)
                polls += 1
                // Changes at once, and the same news about once a second, so that a catch-up
                // that failed is tried again.
                if observation != last || polls * Self.pollMilliseconds >= 1_000 {
                    last = observation
                    polls = 0
                    if !sender.post(observation) { break }
                }
            }
        }
    }

    /// Stops the thread (once its poll in progress ends) and closes the inbox. Its listening connection
    /// closes with it, which releases the leader lock.
    func stop() {
        thread.stop()
    }
}
