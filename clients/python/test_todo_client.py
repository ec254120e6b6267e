"""Runs the Python client against a real todod; the Swift test suite starts the daemon and
passes its socket in $TODO_SOCKET."""

import unittest

from todo_client import ProtocolError, TodoClient


class TodoClientTest(unittest.TestCase):
    def setUp(self):
        self.client = TodoClient.connect(client_name="python-test/1")

    def tearDown(self):
        self.client.close()

    def test_welcome(self):
        self.assertEqual(self.client.server["type"], "welcome")
        self.assertEqual(self.client.server["protocol"], 1)
        self.assertEqual(self.client.server["app"], "todo")

    def test_another_apps_client_is_refused(self):
        with self.assertRaises(ProtocolError) as raised:
            TodoClient.connect(client_name="python-test/1", app="board")
        self.assertEqual(raised.exception.code, "wrong_app")
        self.assertTrue(raised.exception.message.endswith("serving todo; the client is board"))

    def test_a_hello_without_an_app_is_served(self):
        old = TodoClient.connect(client_name="python-old/1", app=None)
        self.assertEqual(old.server["type"], "welcome")
        old.close()

    def test_dispatch_and_subscribe(self):
        updates = self.client.subscribe("list", {"filter": "all"})
        first = next(updates)
        version = self.client.dispatch("add", {"text": "  from Python  "})
        self.assertEqual(version, first["version"] + 1)
        update = next(updates)
        self.assertEqual(update["version"], version)
        self.assertEqual(update["model"]["items"][-1]["text"], "from Python")

    def test_errors_carry_the_protocol_code(self):
        with self.assertRaises(ProtocolError) as raised:
            self.client.dispatch("complete", {"number": 999})
        self.assertEqual(raised.exception.code, "rejected")
        self.assertEqual(raised.exception.message, "no item 999")

    def test_history(self):
        version = self.client.dispatch("add", {"text": "journaled"})
        entries = self.client.history(after=version - 1, limit=1)
        self.assertEqual([entry["version"] for entry in entries], [version])
        self.assertEqual(entries[0]["payload"]["text"], "journaled")


if __name__ == "__main__":
    unittest.main()
