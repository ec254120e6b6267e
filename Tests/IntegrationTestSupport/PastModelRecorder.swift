import Foundation
import TestSupport

/// What a subscriber was sent, version by version, and what `get` with `at` answers: the two
/// are compared byte for byte.
struct PastModelRecorder {
    /// The raw bytes of each whole model a subscription was sent, by version.
    private(set) var seen: [Int: Data] = [:]
    private let subscriber: WireClient

    /// Subscribes `subscriber` (greeted, without patches) to `viewModel` with `params` and
    /// records the first model.
    init(_ subscriber: WireClient, viewModel: String, params: [String: Any] = [:]) throws {
        self.subscriber = subscriber
        let id = try subscriber.subscribe(viewModel, params)
        let reply = try subscriber.receive()
        guard reply["type"] as? String == "subscribed", reply["id"] as? Int == id else {
            throw TestFailure("expected subscribed, got \(reply)")
        }
        try recordNext()
    }

    /// Reads updates until one at `version` or later arrived; returns the newest version seen.
    @discardableResult
    mutating func record(through version: Int) throws -> Int {
        var newest = seen.keys.max() ?? -1
        while newest < version { newest = try recordNext() }
        return newest
    }

    @discardableResult
    private mutating func recordNext() throws -> Int {
        let payload = try subscriber.receivePayload()
        let message = try JSONSerialization.jsonObject(with: payload) as? [String: Any]
        guard message?["type"] as? String == "update", let version = message?["version"] as? Int else {
            throw TestFailure("expected an update, got \(String(decoding: payload, as: UTF8.self))")
        }
        seen[version] = try Self.modelBytes(in: payload)
        return version
    }

    /// The bytes of the `model` member of an `update` or `model` frame as the daemon wrote it:
    /// what follows `"model":` up to the next top-level key, which the daemon writes sorted
    /// (`subscription` after an update's model, `type` after a get's).
    static func modelBytes(in payload: Data) throws -> Data {
        let text = Array(payload)
        let key = Array(#""model":"#.utf8)
        guard let start = text.firstRange(of: key)?.upperBound else {
            throw TestFailure("no model in \(String(decoding: payload, as: UTF8.self))")
        }
        let ends = [Array(#","subscription":"#.utf8), Array(#","type":"model""#.utf8)]
        guard let end = ends.compactMap({ text.lastRange(of: $0)?.lowerBound }).filter({ $0 >= start }).min() else {
            throw TestFailure("no end of the model in \(String(decoding: payload, as: UTF8.self))")
        }
        return Data(text[start..<end])
    }

    /// Asks `client` for `viewModel` with `params` at `version` and returns the reply's
    /// version and model bytes; fails on an error reply.
    static func get(_ client: WireClient, _ viewModel: String, _ params: [String: Any] = [:], at version: Int?) throws
        -> (version: Int, model: Data)
    {
        let id = client.makeID()
        var request: [String: Any] = ["type": "get", "id": id, "viewModel": viewModel, "params": params]
        if let version { request["at"] = version }
        try client.send(request)
        let payload = try client.receivePayload()
        let message = try JSONSerialization.jsonObject(with: payload) as? [String: Any]
        guard message?["type"] as? String == "model", message?["id"] as? Int == id,
            let replyVersion = message?["version"] as? Int
        else {
            throw TestFailure(
                "expected the model at \(version.map(String.init) ?? "the current version"), got \(String(decoding: payload, as: UTF8.self))"
            )
        }
        return (replyVersion, try modelBytes(in: payload))
    }
}

extension Array where Element == UInt8 {
    /// The last range where `needle` occurs.
    fileprivate func lastRange(of needle: [UInt8]) -> Range<Int>? {
        guard needle.count <= count else { return nil }
        for start in stride(from: count - needle.count, through: 0, by: -1)
        where self[start..<start + needle.count].elementsEqual(needle) {
            return start..<start + needle.count
        }
        return nil
    }
}
