"""The generic client against a real daemon of the todo app; the Swift test suite starts the
daemon and passes its socket in $TODO_SOCKET (and the app's name in $SYNC_TEST_APP)."""

import os
import unittest

import sync_client
from sync_client import Client, socket_path


class SocketPathTest(unittest.TestCase):
    """The path is found as Swift's AppIdentity finds it."""

    def test_explicit_then_variable_then_runtime_directory_then_tmp(self):
        self.assertEqual(socket_path("board", explicit="/x.sock", environ={"BOARD_SOCKET": "/y"}), "/x.sock")
        self.assertEqual(socket_path("board", environ={"BOARD_SOCKET": "/y", "XDG_RUNTIME_DIR": "/r"}), "/y")
        self.assertEqual(socket_path("board", environ={"BOARD_SOCKET": "", "XDG_RUNTIME_DIR": "/r"}),
                         "/r/board/boardd.sock")
        self.assertEqual(socket_path("board", environ={}, uid=1000), "/tmp/board-1000/boardd.sock")

    def test_the_daemon_name_and_dashes(self):
        self.assertEqual(socket_path("my-app", daemon_name="mine", environ={"XDG_RUNTIME_DIR": "/r"}),
                         "/r/my-app/mine.sock")
        self.assertEqual(socket_path("my-app", environ={"MY_APP_SOCKET": "/m"}), "/m")

    def test_a_name_outside_the_rules_is_refused(self):
        for name in ("Todo", "1todo", "to do", ""):
            with self.assertRaises(ValueError):
                socket_path(name, environ={})


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.client = Client.connect(app=os.environ.get("SYNC_TEST_APP", "todo"), client_name="python-test/1")

    def tearDown(self):
        self.client.close()

    def test_the_socket_comes_from_the_apps_name(self):
        self.assertEqual(self.client.socket_path, os.environ["TODO_SOCKET"])
        self.assertEqual(self.client.server["app"], "todo")

    def test_each_error_code_is_its_own_exception(self):
        with self.assertRaises(sync_client.Rejected) as raised:
            self.client.dispatch("complete", {"number": 999})
        self.assertEqual((raised.exception.code, raised.exception.message), ("rejected", "no item 999"))
        with self.assertRaises(sync_client.UnknownAction):
            self.client.dispatch("sweep")
        with self.assertRaises(sync_client.InvalidPayload):
            self.client.dispatch("add", {"text": 5})
        with self.assertRaises(sync_client.UnknownViewModel):
            self.client.subscribe("nope")
        with self.assertRaises(sync_client.FutureVersion):
            self.client.get("summary", at=10 ** 9)
        with self.assertRaises(sync_client.WrongApp):
            Client.connect(app="board", socket_path=os.environ["TODO_SOCKET"])
        self.assertTrue(issubclass(sync_client.StaleSequence, sync_client.ServerError))

    def test_batch_side_effect_get_and_history(self):
        version = self.client.dispatch_batch([("add", {"text": "batched"}), ("add", {"text": "too"})])
        number = self.client.get("item", {"number": 1}, at=0)
        self.assertIsNone(number.model)
        summary = self.client.get("summary")
        self.assertEqual(summary.version, version)
        done = self.client.dispatch("complete", {"number": summary.model["totalCount"]})
        result = self.client.run("awaitDone", {"number": summary.model["totalCount"]})
        self.assertEqual(result.result, {"text": "too"})
        self.assertGreaterEqual(result.version, done)
        self.assertEqual(self.client.get("summary", at=version).model, summary.model)
        entries = self.client.history(after=version - 2, limit=2)
        self.assertEqual([entry["payload"]["text"] for entry in entries], ["batched", "too"])
        self.assertEqual(entries[-1]["clientId"], self.client.client_id)

    def test_a_subscription_applies_patches(self):
        self.client.dispatch_batch([("add", {"text": "p" * 1000}) for _ in range(3)])
        subscription = self.client.subscribe("list", {"filter": "all"})
        first = next(subscription)
        number = first.model["items"][-1]["number"]
        version = self.client.dispatch("complete", {"number": number})
        update = subscription.next_update(30)
        self.assertEqual(update.version, version)
        self.assertEqual(update.model, self.client.get("list", {"filter": "all"}).model)
        self.assertTrue(update.model["items"][-1]["completed"])
        subscription.close()
        with self.assertRaises(StopIteration):
            next(subscription)

    def test_closing_ends_requests_and_subscriptions(self):
        subscription = self.client.subscribe("summary")
        next(subscription)
        self.client.close()
        with self.assertRaises(StopIteration):
            next(subscription)
        with self.assertRaises(sync_client.ConnectionClosed):
            self.client.ping()

    def test_nothing_listening_is_daemon_unreachable(self):
        with self.assertRaises(sync_client.DaemonUnreachable):
            Client.connect(app="todo", socket_path="/nonexistent/todod.sock")


if __name__ == "__main__":
    unittest.main()
