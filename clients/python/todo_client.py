"""A client for todod's wire protocol v1 (docs/PROTOCOL.md), standard library only.

    client = TodoClient.connect()                 # $TODO_SOCKET, $XDG_RUNTIME_DIR/todo/todod.sock, ...
    version = client.dispatch("add", {"text": "from Python"})
    for update in client.subscribe("list", {"filter": "open"}):
        print(update["version"], update["model"]["openCount"])
"""

import json
import os
import socket
import struct

PROTOCOL_VERSION = 1


class ProtocolError(Exception):
    """An `error` reply: `code` is the protocol's error code."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ConnectionClosed(Exception):
    """The daemon closed the connection (after `bye`, or because of an error)."""


def default_socket_path():
    """The socket path, resolved as todod and todo resolve it."""
    if os.environ.get("TODO_SOCKET"):
        return os.environ["TODO_SOCKET"]
    if os.environ.get("XDG_RUNTIME_DIR"):
        return os.path.join(os.environ["XDG_RUNTIME_DIR"], "todo", "todod.sock")
    return f"/tmp/todo-{os.getuid()}/todod.sock"


class TodoClient:
    """One connection. Requests are answered in turn; updates that arrive meanwhile are kept
    for `subscribe` and `updates`."""

    def __init__(self, sock, server):
        self._socket = sock
        self._buffer = b""
        self._next_id = 1
        self._pending_updates = []
        self.server = server

    @classmethod
    def connect(cls, path=None, client_name="python/1", app="todo"):
        """Connects and says hello as a client of `app` (another app's daemon refuses it with
        `wrong_app`; None names no app); `server` holds the `welcome` message."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path or default_socket_path())
        client = cls(sock, None)
        hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "client": client_name}
        if app is not None:
            hello["app"] = app
        try:
            client.server = client._request(hello)
        except BaseException:
            sock.close()
            raise
        return client

    def close(self):
        self._socket.close()

    def dispatch(self, name, payload=None):
        """Applies an action and returns the state version once it is durable."""
        reply = self._request({"type": "dispatch", "action": {"name": name, "payload": payload or {}}})
        return reply["version"]

    def history(self, limit=20, after=None):
        """The latest journaled actions (or those after version `after`), oldest first."""
        request = {"type": "history", "limit": limit}
        if after is not None:
            request["after"] = after
        return self._request(request)["entries"]

    def subscribe(self, view_model, params=None):
        """Subscribes; yields {"version", "model"} now and on every change, forever."""
        reply = self._request({"type": "subscribe", "viewModel": view_model, "params": params or {}})
        subscription = reply["subscription"]
        while True:
            message = self._next_update(subscription)
            yield {"version": message["version"], "model": message["model"]}

    def _request(self, message):
        message = dict(message, id=self._next_id)
        self._next_id += 1
        payload = json.dumps(message).encode()
        self._socket.sendall(struct.pack(">I", len(payload)) + payload)
        while True:
            reply = self._read()
            if reply.get("type") == "update":
                self._pending_updates.append(reply)
            elif reply.get("id") == message["id"]:
                if reply["type"] == "error":
                    raise ProtocolError(reply["code"], reply["message"])
                return reply

    def _next_update(self, subscription):
        for index, update in enumerate(self._pending_updates):
            if update["subscription"] == subscription:
                return self._pending_updates.pop(index)
        while True:
            message = self._read()
            if message.get("type") == "update" and message["subscription"] == subscription:
                return message
            if message.get("type") == "update":
                self._pending_updates.append(message)

    def _read(self):
        while True:
            if len(self._buffer) >= 4:
                (length,) = struct.unpack(">I", self._buffer[:4])
                if len(self._buffer) >= 4 + length:
                    payload, self._buffer = self._buffer[4:4 + length], self._buffer[4 + length:]
                    message = json.loads(payload)
                    if message.get("type") == "bye":
                        raise ConnectionClosed(message.get("reason", "bye"))
                    return message
            chunk = self._socket.recv(65536)
            if not chunk:
                raise ConnectionClosed("the daemon closed the connection")
            self._buffer += chunk
