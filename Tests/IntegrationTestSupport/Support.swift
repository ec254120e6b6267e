import Foundation
import TestSupport

extension WireClient.Message {
    /// The `type` field.
    var type: String? { self["type"] as? String }
    /// The `code` field of an error.
    var code: String? { self["code"] as? String }
    /// The `id` field (nil when absent or null).
    var id: Int? { self["id"] as? Int }
    /// The `version` field.
    var version: Int? { self["version"] as? Int }
    /// The `model` field as an object.
    var model: [String: Any]? { self["model"] as? [String: Any] }
    /// The texts of the items of a list model in an update.
    var itemTexts: [String]? { (model?["items"] as? [[String: Any]])?.compactMap { $0["text"] as? String } }
}

extension WireClient {
    /// Imports `groups` batches of 200 items of about 1000 characters each (numbers from 1,
    /// one action per batch), each acknowledged: a quick way to a large list model.
    func importLargeItems(groups: Int, filler: Character) throws {
        let text = String(repeating: filler, count: 990)
        for group in 0..<groups {
            let items: [[String: Any]] = (0..<200).map { n in
                let number = group * 200 + n + 1
                return [
                    "id": "item-\(number)", "number": number, "text": "\(number) \(text)", "completed": false,
                    "createdAt": number,
                ]
            }
            let reply = try dispatchAndWait("import", ["items": items])
            guard reply.type == "ack" else { throw TestFailure("import \(group) was not acknowledged: \(reply)") }
        }
    }

    /// Sends a request and returns the reply with the same id; fails on anything else.
    func request(_ object: [String: Any]) throws -> Message {
        try send(object)
        return try receive()
    }

    /// Dispatches and waits for the ack (or error) of this dispatch, returning it.
    func dispatchAndWait(_ name: String, _ payload: [String: Any]) throws -> Message {
        let id = try dispatch(name, payload)
        while true {
            let message = try receive()
            if message.id == id { return message }
        }
    }

    /// Subscribes and returns (subscription id, first update).
    func subscribeAndWait(_ viewModel: String, _ params: [String: Any] = [:]) throws -> (
        subscription: Int, update: Message
    ) {
        let id = try subscribe(viewModel, params)
        let reply = try receive()
        guard reply.type == "subscribed", reply.id == id, let subscription = reply["subscription"] as? Int else {
            throw TestFailure("expected subscribed, got \(reply)")
        }
        let update = try receive()
        guard update.type == "update", update["subscription"] as? Int == subscription else {
            throw TestFailure("expected the first update, got \(update)")
        }
        return (subscription, update)
    }

    /// Sends an error-provoking message and returns the error reply.
    func expectError(_ object: [String: Any]) throws -> Message {
        let reply = try request(object)
        guard reply.type == "error" else { throw TestFailure("expected an error, got \(reply)") }
        return reply
    }

    /// Round-trips a ping: proves the connection is still served, and that nothing was queued
    /// for it before the pong (a barrier: whatever the daemon wrote earlier arrives first).
    func expectOnlyPong() throws {
        let id = try ping()
        let reply = try receive()
        guard reply.type == "pong", reply.id == id else { throw TestFailure("expected only pong, got \(reply)") }
    }
}

extension WireClient {
    /// Reads until the reply (ack or error) to request `id`, skipping updates.
    func reply(to id: Int) throws -> Message {
        while true {
            let message = try receive()
            if message.type != "update" && message.id == id { return message }
        }
    }

    /// The replies to the requests `ids`, in that order, whatever order they arrive in.
    func replies(to ids: [Int]) throws -> [Message] {
        var byID: [Int: Message] = [:]
        while byID.count < ids.count {
            let message = try receive()
            if message.type != "update", let id = message.id, ids.contains(id) { byID[id] = message }
        }
        return ids.map { byID[$0]! }
    }
}

/// The root of this package's checkout, found from this file's place in it.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent() // IntegrationTestSupport
    .deletingLastPathComponent() // Tests
    .deletingLastPathComponent()
