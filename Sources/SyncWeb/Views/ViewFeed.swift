import SyncProtocol

/// The newest model of one daemon subscription and the few versions before it, so that a
/// browser is sent a patch from whatever version it holds, or the whole model when that
/// version is out of reach. Confined to the gateway's thread.
///
/// A browser's session only remembers the version it holds; what it is sent is computed here
/// when its socket can take it, from the newest model at that moment. A browser that does not
/// read therefore costs nothing per version, and skips to the newest model once it reads.
struct ViewFeed {
    /// One version of the model.
    struct Version {
        /// The state version.
        let version: UInt64
        /// The model (`null` when the view model has none for these params).
        let model: JSONValue
    }

    /// The newest version, once the daemon sent one.
    private(set) var newest: Version?
    /// The versions before the newest, oldest first, at most `keep` of them.
    private var earlier: [Version] = []
    /// Patch bytes from an earlier version to the newest, computed once per base.
    private var patches: [UInt64: [UInt8]] = [:]
    /// The whole newest model, encoded once.
    private var wholeModel: [UInt8]?
    /// How many earlier versions are kept.
    let keep: Int

    /// An empty feed keeping `keep` earlier versions.
    init(keep: Int) {
        self.keep = keep
    }

    /// Takes the daemon's model at `version`.
    mutating func receive(version: UInt64, model: JSONValue) {
        if let newest {
            guard version > newest.version else { return }
            earlier.append(newest)
            if earlier.count > keep { earlier.removeFirst(earlier.count - keep) }
        }
        newest = Version(version: version, model: model)
        patches = [:]
        wholeModel = nil
    }

    /// Whether the model at `version` is one this feed can patch from.
    func canResume(from version: UInt64) -> Bool {
        newest?.version == version || earlier.contains { $0.version == version }
    }

    /// What to send a browser holding `held` (nil: nothing yet): `nil` when it is up to date,
    /// else the newest version with a patch from `held` (`base` set) or the whole model.
    mutating func delta(from held: UInt64?) -> (version: UInt64, base: UInt64?, body: [UInt8])? {
        guard let newest, held != newest.version else { return nil }
        if let held, let patch = patch(from: held) {
            return (newest.version, held, patch)
        }
        if wholeModel == nil { wholeModel = (try? WireJSON.encode(newest.model)) ?? Array("null".utf8) }
        return (newest.version, nil, wholeModel!)
    }

    private mutating func patch(from base: UInt64) -> [UInt8]? {
        if let cached = patches[base] { return cached }
        guard let newest, let old = earlier.last(where: { $0.version == base }) else { return nil }
        guard let bytes = try? JSONPatchWriter.encode(JSONPatch.changes(from: old.model, to: newest.model)) else {
            return nil
        }
        patches[base] = bytes
        return bytes
    }
}
