import SyncProtocol

/// The newest model of one daemon subscription and the patches of the few versions before it,
/// so that a browser is sent a patch from whatever version it holds, or the whole model when
/// that version is out of reach. Confined to the gateway's thread.
///
/// Each version's patch from the one before is computed once, when it arrives; a browser
/// holding an older version gets those patches in a row (RFC 6902 applies operations in
/// order), or the whole model when that would be longer. A browser's session only remembers
/// the version it holds, and what it is sent is made when its socket can take it: a browser
/// that does not read costs nothing per version, and skips to the newest model once it reads.
struct ViewFeed {
    /// The newest version, once the daemon sent one.
    private(set) var newest: (version: UInt64, model: JSONValue)?
    /// For each kept version after the oldest, the operations (a JSON array's inside) that turn
    /// the version before it into it, oldest first.
    private var steps: [(base: UInt64, version: UInt64, operations: [UInt8])] = []
    /// The whole newest model, encoded once.
    private var wholeModel: [UInt8]?
    /// How many steps are kept.
    let keep: Int

    /// An empty feed keeping `keep` versions' patches.
    init(keep: Int) {
        self.keep = keep
    }

    /// Takes the daemon's model at `version`.
    mutating func receive(version: UInt64, model: JSONValue) {
        if let newest {
            guard version > newest.version else { return }
            let patch = (try? JSONPatchWriter.encode(JSONPatch.changes(from: newest.model, to: model))) ?? []
            if patch.count >= 2 {
                steps.append((newest.version, version, Array(patch.dropFirst().dropLast())))
            } else {
                steps = []
            }
            if steps.count > keep { steps.removeFirst(steps.count - keep) }
        }
        newest = (version, model)
        wholeModel = nil
    }

    /// Whether a page holding the model at `version` can be sent patches from it.
    func canResume(from version: UInt64) -> Bool {
        newest?.version == version || steps.contains { $0.base == version }
    }

    /// What to send a browser holding `held` (nil: nothing yet): `nil` when it is up to date,
    /// else the newest version with a patch from `held` (`base` set) or the whole model.
    mutating func delta(from held: UInt64?) -> (version: UInt64, base: UInt64?, body: [UInt8])? {
        guard let newest, held != newest.version else { return nil }
        if wholeModel == nil { wholeModel = (try? WireJSON.encode(newest.model)) ?? Array("null".utf8) }
        if let held, let start = steps.firstIndex(where: { $0.base == held }) {
            var body: [UInt8] = [UInt8(ascii: "[")]
            for step in steps[start...] where !step.operations.isEmpty {
                if body.count > 1 { body.append(UInt8(ascii: ",")) }
                body += step.operations
                if body.count > wholeModel!.count { break }
            }
            body.append(UInt8(ascii: "]"))
            if body.count <= wholeModel!.count { return (newest.version, held, body) }
        }
        return (newest.version, nil, wholeModel!)
    }
}
