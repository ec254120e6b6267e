/// Waiting for something another task does, with a deadline against hanging.
enum Polling {
    /// Checks `condition` until it holds (`true`) or `deadlineSeconds` of real time passed (`false`).
    static func until(deadlineSeconds: Int, _ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(deadlineSeconds)
        while !condition() {
            if clock.now >= deadline || Task.isCancelled { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}
