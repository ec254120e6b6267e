import Testing

@testable import SyncProtocol

/// `app` in hello and welcome: optional in hello, typed, and named by every welcome.
@Suite struct AppHandshakeMessageTests {
    private func decode(_ json: String) throws(ProtocolError) -> ClientRequest {
        try ClientRequest.decode(Array(json.utf8))
    }

    @Test func aHelloNamesItsAppOrNone() throws {
        #expect(
            try decode(#"{"type":"hello","id":1,"protocol":1,"client":"todo/1","app":"todo"}"#)
                == .hello(HelloRequest(id: 1, protocolVersion: 1, client: "todo/1", app: "todo", clientID: nil)))
        #expect(
            try decode(#"{"type":"hello","id":1,"protocol":1,"client":"old/1"}"#)
                == .hello(HelloRequest(id: 1, protocolVersion: 1, client: "old/1", app: nil, clientID: nil)))
    }

    @Test func anAppThatIsNotAStringIsAnInvalidHello() {
        let wrongType = ProtocolError(
            .invalidMessage, #"The field "app" of a "hello" message has the wrong type."#, requestID: 1)
        #expect(throws: wrongType) {
            try decode(#"{"type":"hello","id":1,"protocol":1,"client":"x/1","app":7}"#)
        }
    }

    @Test func theEncodedHelloNamesTheAppAndDecodesBack() throws {
        let hello = HelloRequest(id: 3, client: "board-test", app: "board").encoded()
        #expect(
            String(decoding: hello, as: UTF8.self)
                == #"{"app":"board","client":"board-test","id":3,"protocol":1,"type":"hello"}"#)
        #expect(
            try ClientRequest.decode(hello)
                == .hello(HelloRequest(id: 3, protocolVersion: 1, client: "board-test", app: "board", clientID: nil)))
        let anonymous = HelloRequest(id: 3, client: "x/1").encoded()
        #expect(!String(decoding: anonymous, as: UTF8.self).contains("app"))
    }

    @Test func theWelcomeNamesTheDaemonsApp() throws {
        let welcome = ServerMessage.welcome(
            .init(id: 1, protocolVersion: 1, server: "boardd", app: "board", version: 4))
        #expect(
            String(decoding: welcome.encoded(), as: UTF8.self)
                == #"{"app":"board","id":1,"protocol":1,"server":"boardd","type":"welcome","version":4}"#)
        guard case .welcome(let decoded) = try ServerReply.decode(welcome.encoded()) else {
            Issue.record("not a welcome")
            return
        }
        #expect(decoded.app == "board")
    }

    @Test func wrongAppIsAnErrorCode() {
        #expect(ErrorCode(rawValue: "wrong_app") == .wrongApp)
    }
}
