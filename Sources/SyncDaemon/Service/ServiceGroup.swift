/// The daemon's running parts, in the order they started: stopped in reverse, once, whether
/// the daemon is shutting down or a later part failed to start (swift-service-lifecycle's
/// `ServiceGroup` is the model).
final class ServiceGroup {
    private var running: [(name: String, stop: () -> Void)] = []
    /// Whether `stopAll()` ran.
    private(set) var isStopped = false

    /// Records a part that started; `stop` stops it.
    func started(_ name: String, stop: @escaping () -> Void) {
        precondition(!isStopped, "\(name) started after the services stopped")
        running.append((name, stop))
    }

    /// The names of the parts running, in the order they started.
    var names: [String] { running.map(\.name) }

    /// Stops every part, the last started first. Later calls do nothing.
    func stopAll() {
        guard !isStopped else { return }
        isStopped = true
        for service in running.reversed() { service.stop() }
        running = []
    }
}
