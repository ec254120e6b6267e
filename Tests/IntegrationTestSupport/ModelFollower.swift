import Foundation
import SyncProtocol
import TestSupport

/// Follows one subscription from its updates, patched or whole, as JSON.
struct ModelFollower {
    let subscription: Int
    var version: UInt64 = 0
    var model: JSONValue = .null
    var patchesApplied = 0
    var wholeModels = 0
    var largestPatchFrame = 0

    /// Takes one `update` frame payload of this subscription.
    mutating func take(_ payload: Data) throws {
        guard case .update(Int64(subscription), let next, let base) = try ServerReply.decode(Array(payload)) else {
            throw TestFailure("not an update of \(subscription): \(String(decoding: payload, as: UTF8.self))")
        }
        if let base {
            guard base == version else { throw TestFailure("a patch on \(base), but the model held is of \(version)") }
            model = try WireJSON.decode(PatchEnvelope.self, from: Array(payload)).patch.apply(to: model)
            patchesApplied += 1
            largestPatchFrame = max(largestPatchFrame, payload.count)
        } else {
            model = try WireJSON.decode(UpdateEnvelope<JSONValue>.self, from: Array(payload)).model ?? .null
            wholeModels += 1
        }
        version = next
    }
}

extension WireClient {
    /// Subscribes to `viewModel` with `params` and follows it from its first model.
    func follow(_ viewModel: String, _ params: [String: Any] = [:]) throws -> ModelFollower {
        let id = try subscribe(viewModel, params)
        let reply = try receive()
        guard reply.type == "subscribed", reply.id == id, let subscription = reply["subscription"] as? Int else {
            throw TestFailure("expected subscribed, got \(reply)")
        }
        var follower = ModelFollower(subscription: subscription)
        try follower.take(try receivePayload())
        return follower
    }

    /// Pings, and hands every update that arrives before the pong to its follower: afterwards
    /// each follower holds what the daemon last sent for it.
    func catchUp(_ followers: inout [ModelFollower]) throws {
        let id = try ping()
        while true {
            let payload = try receivePayload()
            let reply = try ServerReply.decode(Array(payload))
            if reply == .pong(id: Int64(id)) { return }
            guard case .update(let subscription, _, _) = reply,
                let index = followers.firstIndex(where: { Int64($0.subscription) == subscription })
            else {
                throw TestFailure("expected updates then pong, got \(String(decoding: payload, as: UTF8.self))")
            }
            try followers[index].take(payload)
        }
    }
}
