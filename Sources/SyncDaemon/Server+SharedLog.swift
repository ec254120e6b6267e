import SyncJournal

/// A shared log: what the listener reports reaches the server here.
extension Server {
    /// Notes what the listener saw, and catches up when other daemons appended.
    func sharedLogDidChange(_ observation: SharedLogObservation) {
        sharedLog = observation
        if let head = observation.head, head > writer.durableVersion {
            writer.requestCatchUp()
            passEnd.start()
        }
    }
}
