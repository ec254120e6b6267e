import CUV
import Glibc
import SyncJournal
import SyncLock

/// Runs a `SharedLogAuditor` on a thread of its own: a whole pass over the shared log every
/// `intervalSeconds` after the previous one ended, each at most a twentieth of one core, and
/// brings what a pass found to the loop thread. After a pass that found the log rewritten it
/// stops checking (every change is refused from then on). Loop-confined itself; not `Sendable`.
///
/// ```
/// verifier thread: wait interval ─▶ pass (chain from version 1, head row, snapshots, own head) ─▶ inbox ─▶ onAudit (loop)
/// ```
final class SharedLogVerifier {
    private let thread: InboxThread<SharedLogAudit>

    /// A verifier of the log of `schema` in the database of `conninfo`, comparing it with
    /// `verifiedHead` (what this daemon applied); its passes reach `onAudit` on the loop.
    init(
        loop: UnsafeMutablePointer<uv_loop_t>, conninfo: String, schema: SharedLogSchema, applicationName: String,
        host: String, intervalSeconds: Int, verifiedHead: Locked<LogChain>,
        onAudit: @escaping (SharedLogAudit) -> Void
    ) throws(DaemonError) {
        thread = try InboxThread(loop: loop, subject: "the shared log's verifier thread", onReceive: onAudit) {
            sender, isStopping in
            let auditor = SharedLogAuditor(
                conninfo: conninfo, schema: schema, applicationName: applicationName, host: host)
            while Self.wait(seconds: intervalSeconds, unless: isStopping) {
                let audit = auditor.verify(known: { verifiedHead.withLock { $0 } }, shouldStop: isStopping)
                if case .unavailable = audit { continue }
                guard sender.post(audit) else { return }
                guard case .rewritten(let reason) = audit else { continue }
                // Every host must stop, so the record must land: try until it does.
                while !auditor.record(refusal: reason) && Self.wait(seconds: 1, unless: isStopping) {}
                return
            }
        }
    }

    /// Stops the thread (once the chunk it reads ends) and closes the inbox.
    func stop() {
        thread.stop()
    }

    /// Sleeps `seconds` in steps of 0.1 s; `false` as soon as `stopped()` says so.
    private static func wait(seconds: Int, unless stopped: () -> Bool) -> Bool {
        for _ in 0..<(seconds * 10) {
            if stopped() { return false }
            usleep(100_000)
        }
        return !stopped()
    }
}
