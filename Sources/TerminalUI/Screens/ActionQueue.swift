/// The actions one screen dispatched, sent to its store one at a time in the order they were
/// made: each waits for the one before it to be answered, so two dispatches from one screen
/// never overtake each other on their way to the daemon.
///
/// One consumer task per queue reads the actions from a stream; it ends once the queue is
/// gone and every action already queued was sent.
@MainActor
final class ActionQueue<Store: ScreenStore> {
    /// One dispatch: the action, and what to do with the store's answer.
    private struct Job: Sendable {
        let action: Store.Action
        let done: @MainActor (Result<Void, any Error>) -> Void
    }

    private let jobs: AsyncStream<Job>.Continuation

    /// A queue sending to `store`.
    init(store: Store) {
        let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobs
        Task { @MainActor in
            for await job in stream {
                do {
                    try await store.dispatch(job.action)
                    job.done(.success(()))
                } catch {
                    job.done(.failure(error))
                }
            }
        }
    }

    deinit {
        jobs.finish()
    }

    /// Queues `action`; `done` hears the store's answer once it and every action queued before
    /// it were sent.
    func enqueue(_ action: Store.Action, done: @escaping @MainActor (Result<Void, any Error>) -> Void) {
        jobs.yield(Job(action: action, done: done))
    }
}
