"""The conformance kit's adapter for this client (conformance/README.md has the format):
one JSON request per line on standard input, one JSON reply or event per line on standard
output. Run it as `python3 -m sync_client.conformance_adapter`."""

from __future__ import annotations

import json
import sys
import threading
from typing import Any, Callable

from .client import Client
from .errors import ConnectionClosed, DaemonUnreachable, ServerError, SyncError
from .subscription import Subscription


class Adapter:
    """The clients and subscriptions the runner named, and the one output stream."""

    def __init__(self, output=sys.stdout):
        self.output = output
        self.output_lock = threading.Lock()
        self.clients: dict[str, Client] = {}
        self.subscriptions: dict[str, Subscription] = {}

    def write(self, message: dict) -> None:
        with self.output_lock:
            self.output.write(json.dumps(message) + "\n")
            self.output.flush()

    def serve(self, lines) -> None:
        """Handles each request on a thread of its own (a side effect may wait for another
        request's action), and waits for them all at the end of input."""
        threads = []
        for line in lines:
            if not line.strip():
                continue
            try:
                request = json.loads(line)
                if not isinstance(request, dict):
                    raise ValueError("not an object")
            except ValueError as error:
                self.write({"id": None, "error": {"code": "bad_request", "message": f"not a JSON object: {error}"}})
                continue
            thread = threading.Thread(target=self.handle, args=(request,), daemon=True)
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join(30)
        for client in self.clients.values():
            client.close()

    def handle(self, request: dict) -> None:
        try:
            handler = OPERATIONS.get(request.get("op"))
            if handler is None:
                raise _BadRequest(f"no operation {request.get('op')!r}")
            self.write({"id": request.get("id"), "ok": handler(self, request)})
        except ServerError as error:
            self.write({"id": request.get("id"), "error": {"code": error.code, "message": error.message}})
        except (SyncError, _BadRequest, KeyError, TypeError) as error:
            self.write({"id": request.get("id"), "error": {"code": _code(error), "message": str(error)}})

    def client(self, request: dict) -> Client:
        name = request.get("client", "main")
        if name not in self.clients:
            raise _BadRequest(f"no client {name!r} connected")
        return self.clients[name]

    def connect(self, request: dict) -> dict:
        client = Client.connect(app=request.get("app"), socket_path=request["socket"],
                                client_name=request.get("clientName", "python-conformance/1"))
        self.clients[request.get("client", "main")] = client
        server = client.server
        return {"server": {key: server.get(key) for key in ("app", "protocol", "version", "server")}}

    def subscribe(self, request: dict) -> dict:
        subscription = self.client(request).subscribe(request["viewModel"], request.get("params"))
        name = request["subscription"]
        self.subscriptions[name] = subscription
        threading.Thread(target=self.pump, args=(name, subscription), daemon=True).start()
        return {}

    def pump(self, name: str, subscription: Subscription) -> None:
        try:
            for update in subscription:
                self.write({"event": "update", "subscription": name, "version": update.version,
                            "model": update.model})
            self.write({"event": "end", "subscription": name, "error": None})
        except SyncError as error:
            self.write({"event": "end", "subscription": name, "error": {"code": _code(error), "message": str(error)}})


def _code(error: Exception) -> str:
    if isinstance(error, ServerError):
        return error.code
    if isinstance(error, DaemonUnreachable):
        return "unreachable"
    if isinstance(error, ConnectionClosed):
        return "connection_closed"
    if isinstance(error, (_BadRequest, KeyError, TypeError)):
        return "bad_request"
    return "client_error"


class _BadRequest(Exception):
    """A request this adapter cannot read."""


def _model(reply) -> dict:
    return {"version": reply.version, "model": reply.model}


OPERATIONS: dict[str, Callable[[Adapter, dict], Any]] = {
    "connect": Adapter.connect,
    "close": lambda adapter, request: (adapter.clients.pop(request.get("client", "main")).close(), {})[1],
    "dispatch": lambda adapter, request: {
        "version": adapter.client(request).dispatch(request["name"], request.get("payload"))},
    "batch": lambda adapter, request: {"version": adapter.client(request).dispatch_batch(
        [(action["name"], action.get("payload")) for action in request["actions"]])},
    "run": lambda adapter, request: {"result": adapter.client(request).run(request["name"], request.get("payload")).result},
    "get": lambda adapter, request: _model(adapter.client(request).get(
        request["viewModel"], request.get("params"), request.get("at"))),
    "history": lambda adapter, request: {"entries": adapter.client(request).history(
        request.get("after"), request.get("limit", 20))},
    "ping": lambda adapter, request: (adapter.client(request).ping(), {})[1],
    "subscribe": Adapter.subscribe,
    "unsubscribe": lambda adapter, request: (adapter.subscriptions.pop(request["subscription"]).close(), {})[1],
}


def main() -> None:
    Adapter().serve(sys.stdin)


if __name__ == "__main__":
    main()
