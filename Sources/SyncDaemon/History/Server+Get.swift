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
extension Server {
    /// Handles `get`.
    func get(_ session: Session, requestID: Int64, viewModel: String, at: UInt64?, payload: [UInt8]) {
        guard let type = App.viewModelType(named: viewModel) else {
            send(
                .error(
                    ProtocolError(.unknownViewModel, "No view model is named \"\(viewModel)\".", requestID: requestID)),
                to: session)
            return
        }
        let render: @Sendable (App.State) -> [UInt8]
        do {
            render = try Self.renderer(type, payload: payload)
        } catch {
            send(
                .error(
                    ProtocolError(
                        .invalidParams, "The params are not valid for \"\(viewModel)\" (\(error.shortDescription)).",
                        requestID: requestID)), to: session)
            return
        }
        let version = at ?? publishedVersion
        guard version <= publishedVersion else {
            let message = "Version \(version) is in the future: the current version is \(publishedVersion)."
            send(.error(ProtocolError(.futureVersion, message, requestID: requestID)), to: session)
            return
        }
        guard version < publishedVersion else {
            send(.model(id: requestID, version: version, model: render(publishedState)), to: session)
            return
        }
        let connectionID = session.connection.id
        let admitted = rebuilds.admit { [unowned self] in
            rebuild(version, render: render) { [unowned self] reply in
                if let next = rebuilds.finished() { next() }
                if let session = sessions[connectionID] { send(reply(requestID), to: session) }
                didAnswerAwaitedRequest(of: connectionID)
            }
        }
        guard admitted else {
            let message =
                "The daemon is rebuilding \(rebuilds.running) past versions and has \(rebuilds.waitingLimit) more waiting, its limit; try again shortly."
            send(.error(ProtocolError(.tooManyRebuilds, message, requestID: requestID)), to: session)
            return
        }
        session.awaitedReplies += 1
    }

    /// Rebuilds the model at past `version`; `done` gets the reply (for a request id) on the loop thread.
    private func rebuild(
        _ version: UInt64, render: @escaping @Sendable (App.State) -> [UInt8],
        done: @escaping (@escaping (Int64) -> ServerMessage) -> Void
    ) {
        let limit = configuration.maximumReplayedActions
        let actionTypes = actionTypes
        writer.readBase(of: version, replayLimit: limit) { [unowned self] result in
            let base: (snapshot: Snapshot?, entries: [JournalEntry])
            switch result {
            case .failure(let error):
                done {
                    ServerMessage.error(
                        ProtocolError(.storageUnavailable, "The journal cannot be read (\(error)).", requestID: $0))
                }
                return
            case .success(.beyondLimit(let snapshotVersion)):
                let from = snapshotVersion == 0 ? "the initial state" : "the snapshot at version \(snapshotVersion)"
                let message =
                    "Rebuilding version \(version) replays \(version - snapshotVersion) actions from \(from); this daemon replays at most \(limit) per request. Ask for a version from \(snapshotVersion) to \(snapshotVersion + UInt64(limit)), or the current one, or raise the daemon's replay limit."
                done { ServerMessage.error(ProtocolError(.replayLimit, message, requestID: $0)) }
                return
            case .success(.missing(let missing)):
                let message =
                    "Version \(version) can no longer be rebuilt: the journal has no action at version \(missing)."
                done { ServerMessage.error(ProtocolError(.versionUnavailable, message, requestID: $0)) }
                return
            case .success(.replay(let snapshot, let entries)):
                base = (snapshot, entries)
            }
            PoolTask.run(
                on: loop,
                work: {
                    Self.model(
                        at: version, snapshot: base.snapshot, entries: base.entries, actionTypes: actionTypes,
                        render: render)
                }
            ) { output in
                switch output {
                case .success(let model)?:
                    done { ServerMessage.model(id: $0, version: version, model: model) }
                case .failure(let reason)?:
                    done {
                        ServerMessage.error(
                            ProtocolError(
                                .versionUnavailable, "Version \(version) cannot be rebuilt: \(reason).", requestID: $0))
                    }
                case nil:
                    done {
                        ServerMessage.error(
                            ProtocolError(
                                .storageUnavailable,
                                "Version \(version) could not be rebuilt (the thread pool refused the work).",
                                requestID: $0))
                    }
                }
            }
        }
        passEnd.start()
    }

    /// The encoded model at `version`: `snapshot` (or the initial state) with `entries`
    /// replayed. Pure: runs on a pool thread.
    private static func model(
        at version: UInt64, snapshot: Snapshot?, entries: [JournalEntry], actionTypes: ActionDirectory<App.State>,
        render: (App.State) -> [UInt8]
    ) -> Result<[UInt8], RebuildFailure> {
        var store = Store(state: App.initialState)
        if let snapshot {
            do {
                store = Store(
                    state: try WireJSON.decode(App.State.self, from: snapshot.state), version: snapshot.version)
            } catch {
                return .failure(
                    RebuildFailure(
                        description:
                            "the snapshot at version \(snapshot.version) does not decode (\(error.shortDescription))"))
            }
        }
        for entry in entries {
            do {
                try actionTypes.reapply(entry, to: &store)
            } catch {
                return .failure(RebuildFailure(description: error.description(at: entry.version)))
            }
        }
        guard store.version == version else {
            return .failure(RebuildFailure(description: "the journal's actions end at version \(store.version)"))
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

/// Why a past version could not be rebuilt from what the journal holds.
struct RebuildFailure: Error, CustomStringConvertible {
    let description: String
}
