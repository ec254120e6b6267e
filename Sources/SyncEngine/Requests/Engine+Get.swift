import SyncJournal
import SyncProtocol
import SyncStore

/// `get`: a view model once, at the current version or rebuilt at a past one (time travel).
///
/// A past version is rebuilt from the journal, never from memory: the job that commits reads
/// the newest snapshot at or below it and the actions after that snapshot up to it (at most
/// `maximumReplayedActions`), then a thread-pool task decodes the snapshot, replays the
/// actions as recovery does (`ActionDirectory.reapply`), and projects and encodes the model.
/// The loop serves on meanwhile. Actions are deterministic given their journaled payloads, so
/// the model is exactly the one subscribers were sent at that version.
extension Engine {
    /// Handles `get`.
    func get(_ connection: ClientConnection, requestID: Int64, viewModel: String, at: UInt64?, payload: [UInt8]) {
        guard let type = App.viewModelType(named: viewModel) else {
            refuse(.unknownViewModel, "No view model is named \"\(viewModel)\".", requestID: requestID, on: connection)
            return
        }
        let render: @Sendable (App.State) -> [UInt8]
        do {
            render = try Self.renderer(type, payload: payload)
        } catch {
            refuse(
                .invalidParams, "The params are not valid for \"\(viewModel)\" (\(error.shortDescription)).",
                requestID: requestID, on: connection)
            return
        }
        let version = at ?? publishedVersion
        guard version <= publishedVersion else {
            let message = "Version \(version) is in the future: the current version is \(publishedVersion)."
            refuse(.futureVersion, message, requestID: requestID, on: connection)
            return
        }
        guard version < publishedVersion else {
            send(.model(id: requestID, version: version, model: render(publishedState)), to: connection)
            return
        }
        let token = requests.enter(requestID, of: connection.id)
        let admitted = rebuilds.admit { [unowned self] in
            let read = journalReads.add(.pastBase(token, version: version, render: render))
            emit(.readPastBase(read: read, version: version, replayLimit: configuration.maximumReplayedActions))
            wantPassEnd()
        }
        guard admitted else {
            let message =
                "The daemon is rebuilding \(rebuilds.running) past versions and has \(rebuilds.waitingLimit) more waiting, its limit; try again shortly."
            answer(token) { ServerMessage.error(ProtocolError(.tooManyRebuilds, message, requestID: $0)) }
            return
        }
    }

    /// What the read a rebuild starts from found: the replay goes to the thread pool, or the
    /// rebuild ends with the reason it cannot be done.
    func deliverPastBase(_ result: Result<PastStateBase, JournalError>, for read: Int) {
        guard case .pastBase(let token, let version, let render)? = takeJournalRead(read) else { return }
        let limit = configuration.maximumReplayedActions
        switch result {
        case .failure(let error):
            finishRebuild(token) {
                ServerMessage.error(
                    ProtocolError(.storageUnavailable, "The journal cannot be read (\(error)).", requestID: $0))
            }
        case .success(.beyondLimit(let snapshotVersion)):
            let from = snapshotVersion == 0 ? "the initial state" : "the snapshot at version \(snapshotVersion)"
            let message =
                "Rebuilding version \(version) replays \(version - snapshotVersion) actions from \(from); this daemon replays at most \(limit) per request. Ask for a version from \(snapshotVersion) to \(snapshotVersion + UInt64(limit)), or the current one, or raise the daemon's replay limit."
            finishRebuild(token) { ServerMessage.error(ProtocolError(.replayLimit, message, requestID: $0)) }
        case .success(.missing(let missing)):
            let message =
                "Version \(version) can no longer be rebuilt: the journal has no action at version \(missing)."
            finishRebuild(token) { ServerMessage.error(ProtocolError(.versionUnavailable, message, requestID: $0)) }
        case .success(.replay(let snapshot, let entries)):
            let actionTypes = actionTypes
            let job = journalReads.add(.rebuild(token, version: version))
            emit(
                .runOnPool(
                    job: job,
                    work: {
                        Self.model(
                            at: version, snapshot: snapshot, entries: entries, actionTypes: actionTypes,
                            render: render)
                    }))
        }
    }

    /// The replay of the rebuild of `version` for `token` ended; `nil` when the thread pool
    /// refused the work.
    func deliverRebuild(_ result: Result<[UInt8], PoolJobFailure>?, token: RequestBook.Token, version: UInt64) {
        finishRebuild(token) { requestID in
            switch result {
            case .success(let model)?:
                return ServerMessage.model(id: requestID, version: version, model: model)
            case .failure(let reason)?:
                return ServerMessage.error(
                    ProtocolError(
                        .versionUnavailable, "Version \(version) cannot be rebuilt: \(reason).", requestID: requestID))
            case nil:
                return ServerMessage.error(
                    ProtocolError(
                        .storageUnavailable,
                        "Version \(version) could not be rebuilt (the thread pool refused the work).",
                        requestID: requestID))
            }
        }
    }

    /// Ends a rebuild with its answer and starts the next one waiting.
    private func finishRebuild(_ token: RequestBook.Token, _ message: (Int64) -> ServerMessage) {
        if let next = rebuilds.finished() { next() }
        answer(token, with: message)
    }

    /// The encoded model at `version`: `snapshot` (or the initial state) with `entries`
    /// replayed. Pure: runs on a pool thread.
    private static func model(
        at version: UInt64, snapshot: Snapshot?, entries: [JournalEntry], actionTypes: ActionDirectory<App.State>,
        render: (App.State) -> [UInt8]
    ) -> Result<[UInt8], PoolJobFailure> {
        var store = Store(state: App.initialState)
        if let snapshot {
            do {
                store = Store(
                    state: try WireJSON.decode(App.State.self, from: snapshot.state), version: snapshot.version)
            } catch {
                return .failure(
                    PoolJobFailure(
                        description:
                            "the snapshot at version \(snapshot.version) does not decode (\(error.shortDescription))"))
            }
        }
        for entry in entries {
            do {
                try actionTypes.reapply(entry, to: &store)
            } catch {
                return .failure(PoolJobFailure(description: error.description(at: entry.version)))
            }
        }
        guard store.version == version else {
            return .failure(PoolJobFailure(description: "the journal's actions end at version \(store.version)"))
        }
        return .success(render(store.state))
    }

    /// Decodes the params of a get frame as `Model`'s and returns what renders the model.
    private static func renderer<Model: ViewModel<App.State>>(_ type: Model.Type, payload: [UInt8]) throws
        -> @Sendable (App.State) -> [UInt8]
    {
        let params = try WireJSON.decode(SubscribeEnvelope<Model.Params>.self, from: payload).params
        return { state in TypedViewSource<Model>(params: params).render(state).bytes }
    }
}

/// Why work on the thread pool (`EngineOutput.runOnPool`) failed: a past version that could not
/// be rebuilt from what the journal holds, a history answer that could not be encoded.
package struct PoolJobFailure: Error, CustomStringConvertible {
    package let description: String
}
