import SyncStore
import Testing

@Suite struct AppIdentityTests {
    let todo = AppIdentity(name: "todo", version: "0.1.0")
    let board = AppIdentity(name: "board", version: "1.2.0")

    @Test func resolvesTheSocketPathInOrder() {
        #expect(
            todo.socketPath(explicit: "/a", environment: ["TODO_SOCKET": "/b", "XDG_RUNTIME_DIR": "/c"], userID: 5)
                == "/a")
        #expect(
            todo.socketPath(explicit: nil, environment: ["TODO_SOCKET": "/b", "XDG_RUNTIME_DIR": "/c"], userID: 5)
                == "/b")
        #expect(
            todo.socketPath(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/c"], userID: 5) == "/c/todo/todod.sock")
        #expect(todo.socketPath(explicit: nil, environment: [:], userID: 5) == "/tmp/todo-5/todod.sock")
        #expect(todo.socketPath(explicit: "", environment: ["TODO_SOCKET": ""], userID: 5) == "/tmp/todo-5/todod.sock")
    }

    @Test func resolvesTheDataDirectoryInOrder() {
        #expect(todo.dataDirectory(explicit: "/d", environment: ["STATE_DIRECTORY": "/s"]) == "/d")
        #expect(
            todo.dataDirectory(explicit: nil, environment: ["STATE_DIRECTORY": "/s:/t", "XDG_STATE_HOME": "/x"]) == "/s"
        )
        #expect(todo.dataDirectory(explicit: nil, environment: ["XDG_STATE_HOME": "/x", "HOME": "/h"]) == "/x/todo")
        #expect(todo.dataDirectory(explicit: nil, environment: ["HOME": "/h"]) == "/h/.local/state/todo")
        #expect(todo.dataDirectory(explicit: nil, environment: [:]) == nil)
    }

    @Test func twoAppsShareNoDefault() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/5", "HOME": "/h", "TODO_SOCKET": "/elsewhere/todo.sock"]
        #expect(board.socketPath(explicit: nil, environment: environment, userID: 5) == "/run/user/5/board/boardd.sock")
        #expect(board.dataDirectory(explicit: nil, environment: environment) == "/h/.local/state/board")
        #expect(
            board.dataDirectory(explicit: nil, environment: environment)
                != todo.dataDirectory(explicit: nil, environment: environment))
        #expect(
            board.socketPath(explicit: nil, environment: [:], userID: 5)
                != todo.socketPath(explicit: nil, environment: [:], userID: 5))
        #expect(
            Set(board.environmentVariables.filter { $0.hasPrefix("BOARD") }) == ["BOARD_SOCKET", "BOARDD_POSTGRES"])
    }

    @Test func namesEverythingAfterTheApp() {
        let app = AppIdentity(name: "tea-timer", version: "2.0.0")
        #expect(app.daemonName == "tea-timerd")
        #expect(app.clientName == "tea-timer/2.0.0" && app.serverName == "tea-timerd/2.0.0")
        #expect(app.socketVariable == "TEA_TIMER_SOCKET" && app.noAutostartVariable == "TEA_TIMER_NO_AUTOSTART")
        #expect(app.postgresVariable == "TEA_TIMERD_POSTGRES")
        #expect(app.socketUnitName == "tea-timerd.socket" && app.serviceUnitName == "tea-timerd.service")
        #expect(app.lockFileName == "tea-timerd.lock")
        #expect(AppIdentity(name: "kv", version: "1", daemonName: "kv-server").socketFileName == "kv-server.sock")
    }

    @Test func acceptsOnlyNamesThatMakeSafePaths() {
        for good in ["todo", "a", "board2", "tea-timer"] { #expect(AppIdentity.isValidName(good), "\(good)") }
        for bad in ["", "Todo", "2do", "-x", "to do", "to/do", "../x", "tödo", "to_do"] {
            #expect(!AppIdentity.isValidName(bad), "\(bad)")
        }
    }
}
