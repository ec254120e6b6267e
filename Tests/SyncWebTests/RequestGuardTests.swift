import Testing

@testable import SyncWeb

/// The gateway's access rules: Host (DNS rebinding), the one-time token and its cookie, and the
/// upgrade's Origin.
@Suite struct RequestGuardTests {
    private let address = ListenAddress(host: "127.0.0.1", port: 8765)

    private func request(
        _ path: String = "/", host: String? = "127.0.0.1:8765", origin: String? = nil, cookie: String? = nil,
        token: String? = nil
    ) -> HTTPRequestFacts {
        HTTPRequestFacts(path: path, host: host, origin: origin, cookie: cookie, token: token)
    }

    /// Signs in with the printed token and returns the `Cookie` header a browser then sends.
    private func signIn(_ rules: inout RequestGuard, host: String = "127.0.0.1:8765") throws -> String {
        let token = try #require(rules.keys.token)
        guard case .redirect(let setCookie) = rules.decide(request(host: host, token: token)) else {
            Issue.record("the token did not sign in")
            return ""
        }
        return String(setCookie.split(separator: ";")[0])
    }

    @Test func theTokenIsExchangedOnceForAStrictHttpOnlyCookie() throws {
        var rules = RequestGuard(address: address, publicOrigins: [])
        let token = try #require(rules.keys.token)
        guard case .redirect(let setCookie) = rules.decide(request(token: token)) else {
            Issue.record("the token did not sign in")
            return
        }
        #expect(setCookie.hasPrefix("sync_session_8765="))
        #expect(setCookie.contains("HttpOnly"))
        #expect(setCookie.contains("SameSite=Strict"))
        #expect(rules.keys.token == nil)
        #expect(
            rules.decide(request(token: token))
                == .refuse(status: 401, reason: "This link was used already or is not this gateway's."))
    }

    @Test func aWrongTokenSignsNobodyIn() throws {
        var rules = RequestGuard(address: address, publicOrigins: [])
        guard case .refuse(401, _) = rules.decide(request(token: String(repeating: "0", count: 64))) else {
            Issue.record("a wrong token was accepted")
            return
        }
        #expect(rules.keys.token != nil)
    }

    @Test func withoutTheCookieEveryRequestIs401() throws {
        var rules = RequestGuard(address: address, publicOrigins: [])
        let cookie = try signIn(&rules)
        guard case .refuse(401, _) = rules.decide(request("/app.js")) else {
            Issue.record("served without a cookie")
            return
        }
        guard case .refuse(401, _) = rules.decide(request("/app.js", cookie: "sync_session_8765=forged")) else {
            Issue.record("served with a forged cookie")
            return
        }
        #expect(rules.decide(request("/app.js", cookie: "other=1; " + cookie)) == .serve(path: "/app.js"))
    }

    @Test func theHostMustNameTheGateway() throws {
        var rules = RequestGuard(address: address, publicOrigins: [])
        let cookie = try signIn(&rules)
        #expect(rules.decide(request(host: "localhost:8765", cookie: cookie)) == .serve(path: "/"))
        for host in ["evil.example:8765", "127.0.0.1:8766", nil] {
            guard case .refuse(421, _) = rules.decide(request(host: host, cookie: cookie)) else {
                Issue.record("served to Host \(host ?? "(none)")")
                continue
            }
        }
    }

    @Test func anUpgradeMustComeFromThePagesOwnOriginWithTheCookie() throws {
        var rules = RequestGuard(address: address, publicOrigins: [])
        let cookie = try signIn(&rules)
        #expect(rules.decideUpgrade(request(origin: "http://127.0.0.1:8765", cookie: cookie)) == .upgrade)
        #expect(rules.decideUpgrade(request(origin: "http://localhost:8765", cookie: cookie)) == .upgrade)
        guard case .refuse(403, _) = rules.decideUpgrade(request(origin: "http://evil.example", cookie: cookie)) else {
            Issue.record("a foreign origin upgraded")
            return
        }
        guard case .refuse(403, _) = rules.decideUpgrade(request(cookie: cookie)) else {
            Issue.record("an upgrade without an origin was accepted")
            return
        }
        guard case .refuse(401, _) = rules.decideUpgrade(request(origin: "http://127.0.0.1:8765")) else {
            Issue.record("an upgrade without the cookie was accepted")
            return
        }
    }

    @Test func aProxysPublicOriginIsAcceptedBesideTheAddress() throws {
        var rules = RequestGuard(address: address, publicOrigins: ["https://todo.example.com"])
        let cookie = try signIn(&rules)
        #expect(
            rules.decideUpgrade(request(host: "todo.example.com", origin: "https://todo.example.com", cookie: cookie))
                == .upgrade)
        #expect(rules.decide(request(host: "todo.example.com", cookie: cookie)) == .serve(path: "/"))
    }

    @Test func aNonLoopbackAddressDoesNotAcceptLocalhost() throws {
        var rules = RequestGuard(address: ListenAddress(host: "192.0.2.7", port: 80), publicOrigins: [])
        let cookie = try signIn(&rules, host: "192.0.2.7:80")
        guard case .refuse(421, _) = rules.decide(request(host: "localhost:80", cookie: cookie)) else {
            Issue.record("localhost accepted for a non-loopback address")
            return
        }
    }

    @Test func behindAnHTTPSProxyTheCookieIsSecureAndOnlyOverTLSOtherwise() throws {
        var proxied = RequestGuard(address: address, publicOrigins: ["https://todo.example.com"])
        let token = try #require(proxied.keys.token)
        guard case .redirect(let setCookie) = proxied.decide(request(token: token)) else {
            Issue.record("the token did not sign in")
            return
        }
        #expect(setCookie.hasSuffix("; Secure"))
        var local = RequestGuard(address: address, publicOrigins: [])
        let localToken: String = try #require(local.keys.token)
        guard case .redirect(let plain) = local.decide(request(token: localToken)) else {
            Issue.record("the token did not sign in")
            return
        }
        #expect(!plain.contains("Secure"), "a loopback page over http keeps its cookie")
    }

    @Test func aPublicOriginIsReadAsBrowsersWriteOriginsAndNothingElseIsOne() throws {
        #expect(RequestGuard.origin("HTTPS://Todo.Example.com:443/")?.origin == "https://todo.example.com")
        #expect(RequestGuard.origin("http://todo.example.com:8080")?.host == "todo.example.com:8080")
        for bad in ["https://todo.example.com/app", "https://user@todo.example.com", "ftp://x", "https://", "todo"] {
            #expect(RequestGuard.origin(bad) == nil, "\(bad)")
        }
        var rules = RequestGuard(address: address, publicOrigins: ["https://Todo.Example.com:443/"])
        let cookie = try signIn(&rules)
        #expect(
            rules.decideUpgrade(request(host: "todo.example.com", origin: "https://todo.example.com", cookie: cookie))
                == .upgrade)
        #expect(!rules.hosts.contains("app") && !rules.hosts.contains("443"))
    }
}
