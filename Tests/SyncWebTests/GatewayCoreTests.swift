import SyncProtocol
import Testing

@testable import SyncWeb

/// The gateway's decisions without sockets: greeting, one daemon subscription per distinct
/// view, updates made when a socket can take them, the allowlist and the limits.
@Suite struct GatewayCoreTests {
    private let first = SessionID(raw: 1)
    private let second = SessionID(raw: 2)
    private let list = FeedKey(viewModel: "list", params: Array(#"{"filter":"all"}"#.utf8))

    private func core(_ limits: WebLimits = WebLimits()) -> GatewayCore {
        GatewayCore(app: "todo", allowlist: testAllowlist, limits: limits)
    }

    /// Every message now due to `id`, decoded.
    private func drain(_ core: inout GatewayCore, _ id: SessionID) throws -> [JSONValue] {
        var messages: [JSONValue] = []
        while let next = core.nextMessage(for: id) {
            messages.append(try decoded(next.message))
            if !next.more { break }
        }
        return messages
    }

    private func send(_ core: inout GatewayCore, _ id: SessionID, _ text: String, now: UInt64 = 0) -> GatewayReception {
        core.received(id, bytes(text), isLast: true, now: now)
    }

    private func subscribe(_ core: inout GatewayCore, _ id: SessionID, params: String = #"{"filter":"all"}"#)
        -> GatewayReception
    {
        send(&core, id, #"{"type":"subscribe","key":"list","viewModel":"list","params":\#(params)}"#)
    }

    @Test func aBrowserIsGreetedWithTheAppAndTheDaemonsState() throws {
        var core = core()
        let greeting = core.opened(first)
        #expect(greeting == [.wantWritable(first)])
        let messages = try drain(&core, first)
        #expect(messages.count == 1)
        #expect(messages[0]["type"] == .string("hello"))
        #expect(messages[0]["app"] == .string("todo"))
        #expect(messages[0]["daemon"] == .string("live"))
    }

    @Test func browsersFollowingTheSameViewShareOneDaemonSubscription() throws {
        var core = core()
        _ = core.opened(first)
        _ = core.opened(second)
        _ = try drain(&core, first)
        _ = try drain(&core, second)
        let firstFollower = subscribe(&core, first)
        #expect(firstFollower == .keep([.follow(list)]))
        // The same params spelt otherwise (the default filter left out) are the same view.
        let sameView = subscribe(&core, second, params: "{}")
        #expect(sameView == .keep([]))
        #expect(core.feeds.count == 1)
        let otherView = subscribe(&core, second, params: #"{"filter":"done"}"#)
        #expect(otherView == .keep([.follow(FeedKey(viewModel: "list", params: Array(#"{"filter":"done"}"#.utf8)))]))
    }

    @Test func aModelReachesOnlyItsFollowersAsTheWholeModelThenAsPatches() throws {
        var core = core()
        _ = core.opened(first)
        _ = core.opened(second)
        _ = subscribe(&core, first)
        _ = try drain(&core, first)
        _ = try drain(&core, second)
        let woken = core.modelArrived(list, version: 5, model: listModel(["milk"]))
        #expect(woken == [.wantWritable(first)])
        let notFollowing = core.nextMessage(for: second)
        #expect(notFollowing == nil)
        let whole = try drain(&core, first)
        #expect(whole.count == 1)
        #expect(whole[0]["type"] == .string("update"))
        #expect(whole[0]["version"] == .integer(5))
        #expect(whole[0]["model"] == listModel(["milk"]))
        _ = core.modelArrived(list, version: 6, model: listModel(["milk", "eggs"]))
        let patch = try drain(&core, first)
        #expect(patch.count == 1)
        #expect(patch[0]["base"] == .integer(5))
        let operations = try JSONPatch(
            operations: WireJSON.decode([JSONPatch.Operation].self, from: WireJSON.encode(#require(patch[0]["patch"]))))
        #expect(try operations.apply(to: listModel(["milk"])) == listModel(["milk", "eggs"]))
    }

    @Test func aBrowserThatDoesNotReadIsConflatedToTheNewestModel() throws {
        var core = core()
        _ = core.opened(first)
        _ = subscribe(&core, first)
        _ = try drain(&core, first)
        for version in 1...100 {
            _ = core.modelArrived(list, version: UInt64(version), model: listModel((1...version).map { "item \($0)" }))
        }
        // Nothing piled up for it: one message takes it from nothing to the newest model.
        #expect(core.sessions[first]?.replies.isEmpty == true)
        let messages = try drain(&core, first)
        #expect(messages.count == 1)
        #expect(messages[0]["version"] == .integer(100))
        #expect(messages[0]["model"] == listModel((1...100).map { "item \($0)" }))
        #expect(core.pending.isEmpty)
    }

    @Test func aResumingBrowserGetsAPatchFromTheVersionItHas() throws {
        var core = core()
        _ = core.opened(first)
        _ = subscribe(&core, first)
        _ = core.modelArrived(list, version: 1, model: listModel(["milk"]))
        _ = core.modelArrived(list, version: 2, model: listModel(["milk", "eggs"]))
        _ = core.opened(second)
        _ = try drain(&core, second)
        _ = send(&core, second, #"{"type":"subscribe","key":"l","viewModel":"list","params":{},"have":1}"#)
        let messages = try drain(&core, second)
        #expect(messages.count == 1)
        #expect(messages[0]["base"] == .integer(1))
        #expect(messages[0]["version"] == .integer(2))
        // A version the gateway never had gets the whole model.
        _ = send(&core, second, #"{"type":"subscribe","key":"m","viewModel":"list","params":{},"have":77}"#)
        let whole = try drain(&core, second)
        #expect(whole.count == 1)
        #expect(whole[0]["key"] == .string("m"))
        #expect(whole[0]["model"] == listModel(["milk", "eggs"]))
    }

    @Test func onlyAllowlistedActionsAndViewModelsPass() throws {
        var core = core()
        _ = core.opened(first)
        _ = try drain(&core, first)
        let unknownAction = send(&core, first, #"{"type":"dispatch","id":1,"action":"importItems","payload":{}}"#)
        #expect(unknownAction == .keep([.wantWritable(first)]))
        let unknownViewModel = send(&core, first, #"{"type":"subscribe","key":"x","viewModel":"secrets","params":{}}"#)
        #expect(unknownViewModel == .keep([.wantWritable(first)]))
        let badParams = send(&core, first, #"{"type":"subscribe","key":"x","viewModel":"list","params":{"filter":9}}"#)
        #expect(badParams == .keep([.wantWritable(first)]))
        let notJSON = send(&core, first, "not json")
        #expect(notJSON == .keep([.wantWritable(first)]))
        let codes = try drain(&core, first).map { $0["code"] }
        #expect(
            codes == [
                .string("unknown_action"), .string("unknown_view_model"), .string("invalid_params"),
                .string("invalid_message"),
            ])
        let payload = Array(#"{"text":"milk"}"#.utf8)
        let allowed = send(&core, first, #"{"type":"dispatch","id":2,"action":"add","payload":{"text":"milk"}}"#)
        #expect(allowed == .keep([.dispatch(first, requestID: 2, action: "add", payload: payload)]))
    }

    @Test func theAnswerOfADispatchIsAcked() throws {
        var core = core()
        _ = core.opened(first)
        _ = try drain(&core, first)
        _ = send(&core, first, #"{"type":"dispatch","id":2,"action":"add","payload":{"text":"milk"}}"#)
        let woken = core.answered(first, requestID: 2, .applied(version: 9))
        #expect(woken == [.wantWritable(first)])
        _ = send(&core, first, #"{"type":"dispatch","id":3,"action":"complete","payload":{"number":4}}"#)
        _ = core.answered(first, requestID: 3, .refused(code: "rejected", message: "no item 4"))
        let messages = try drain(&core, first)
        #expect(messages.map { $0["type"] } == [.string("ack"), .string("error")])
        #expect(messages[0]["version"] == .integer(9))
        #expect(messages[1]["id"] == .integer(3))
        #expect(core.sessions[first]?.inFlight == 0)
    }

    @Test func dispatchesInFlightAndPerSecondAreBounded() throws {
        var limits = WebLimits()
        limits.actionsInFlight = 2
        limits.actionsPerSecond = 3
        var core = core(limits)
        _ = core.opened(first)
        _ = try drain(&core, first)
        let dispatch = { (id: Int) in #"{"type":"dispatch","id":\#(id),"action":"add","payload":{"text":"x"}}"# }
        for id in 1...3 { _ = send(&core, first, dispatch(id), now: 1000) }
        let inFlight = try drain(&core, first).map { $0["code"] }
        #expect(inFlight == [.string("too_many_in_flight")])
        _ = core.answered(first, requestID: 1, .applied(version: 1))
        _ = core.answered(first, requestID: 2, .applied(version: 2))
        _ = try drain(&core, first)
        _ = send(&core, first, dispatch(4), now: 1100)
        _ = send(&core, first, dispatch(5), now: 1200)
        let overTheRate = try drain(&core, first).map { $0["code"] }
        #expect(overTheRate == [.string("rate_limited")])
        // A second later the window is open again.
        _ = core.answered(first, requestID: 4, .applied(version: 3))
        _ = try drain(&core, first)
        guard case .keep(let outputs) = send(&core, first, dispatch(6), now: 2100) else {
            Issue.record("closed")
            return
        }
        #expect(outputs == [.dispatch(first, requestID: 6, action: "add", payload: Array(#"{"text":"x"}"#.utf8))])
    }

    @Test func aMessageOverTheLimitClosesTheConnectionWithAReason() throws {
        var limits = WebLimits()
        limits.maximumMessageBytes = 100
        var core = core(limits)
        _ = core.opened(first)
        let underTheLimit = core.received(first, [UInt8](repeating: 32, count: 60), isLast: false, now: 0)
        #expect(underTheLimit == .keep([]))
        let overTheLimit = core.received(first, [UInt8](repeating: 32, count: 60), isLast: false, now: 0)
        #expect(overTheLimit == .close(code: 1009, reason: "message over 100 bytes"))
    }

    @Test func theDaemonsStateReachesEveryBrowser() throws {
        var core = core()
        _ = core.opened(first)
        _ = core.opened(second)
        _ = try drain(&core, first)
        _ = try drain(&core, second)
        let notices = core.daemonChanged(live: false, version: nil)
        #expect(notices.count == 2)
        #expect(notices.contains(.wantWritable(first)) && notices.contains(.wantWritable(second)))
        let unchanged = core.daemonChanged(live: false, version: nil)
        #expect(unchanged == [])
        let states = try drain(&core, first).map { $0["state"] }
        #expect(states == [.string("reconnecting")])
        _ = core.daemonChanged(live: true, version: 12)
        let back = try drain(&core, second)
        #expect(back.map { $0["state"] } == [.string("reconnecting"), .string("live")])
        #expect(back[1]["version"] == .integer(12))
    }

    @Test func aClosedBrowserIsForgottenAndTheConnectionLimitHolds() throws {
        var limits = WebLimits()
        limits.connections = 1
        var core = core(limits)
        _ = core.opened(first)
        #expect(!core.acceptsConnection)
        core.closed(first)
        #expect(core.acceptsConnection)
        let lateAnswer = core.answered(first, requestID: 1, .applied(version: 1))
        #expect(lateAnswer == [])
        let lateMessage = core.nextMessage(for: first)
        #expect(lateMessage == nil)
    }
}
