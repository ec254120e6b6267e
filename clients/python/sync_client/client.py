"""A client of any app's daemon, over the wire protocol of docs/PROTOCOL.md.

One connection, read by one background thread; any thread may call it. Requests wait for
their reply; subscriptions are iterators. When the connection is lost, the client connects
again (with the same client id), subscribes again and resends every request still
unanswered, so a dispatch (numbered for exactly-once) is applied once.
"""

from __future__ import annotations

import collections
import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from . import framing
from .errors import (ConnectionClosed, DaemonUnreachable, ProtocolViolation, ServerError, SyncError,
                     error_from)
from .identity import socket_path as resolve_socket
from .subscription import Subscription

PROTOCOL_VERSION = 1


@dataclass(frozen=True)
class Model:
    """A `get` reply: the model (None when it has no value) and the version it reflects."""

    version: int
    model: Any


@dataclass(frozen=True)
class Result:
    """A side effect's `result`, and the state version when it finished."""

    version: int
    result: Any


class _Call:
    """A request awaiting its reply: resent as it is after a reconnect."""

    def __init__(self, message: dict, kind: str, on_reply: Callable[[dict], None] | None = None):
        self.message = message
        self.kind = kind
        self.on_reply = on_reply
        self.reply: dict | None = None
        self.error: SyncError | None = None


class Client:
    """A connection to an app's daemon. Use `Client.connect(app=...)`."""

    def __init__(self, path: str, client_name: str, app: str | None, features: Iterable[str],
                 reconnect: bool, give_up_after: float | None):
        self.socket_path = path
        self.client_name = client_name
        self.app = app
        self.features = list(features)
        self.reconnect = reconnect
        self.give_up_after = give_up_after
        #: The client id for exactly-once dispatch, kept across reconnects.
        self.client_id = os.urandom(16).hex()
        #: The daemon's first `welcome`.
        self.server: dict = {}
        self._lock = threading.RLock()
        self._condition = threading.Condition(self._lock)
        self._next_id = 1
        self._next_sequence = 1
        self._pending: dict[int, _Call] = {}
        self._subscriptions: list[Subscription] = []
        self._by_server_id: dict[int, Subscription] = {}
        self._socket: socket.socket | None = None
        self._closed: SyncError | None = None
        self._reader: threading.Thread | None = None
        # Frames to send, with the connection each is for, sent by the writer thread: never
        # under the lock and never from the reader thread, so that a daemon that stopped
        # reading this client (it has too much unread output for it) cannot stop the reader
        # that would drain that output.
        self._outbox: collections.deque[tuple[socket.socket, bytes]] = collections.deque()
        self._outbox_ready = threading.Condition(self._lock)
        self._writer: threading.Thread | None = None

    @classmethod
    def connect(cls, app: str | None = None, socket_path: str | None = None, *, daemon_name: str | None = None,
                client_name: str | None = None, features: Iterable[str] = ("patch",), reconnect: bool = True,
                give_up_after: float | None = 30.0) -> Client:
        """Connects to the daemon of `app` (its socket found as `AppIdentity` finds it, unless
        `socket_path` is given) and says hello. A daemon serving another app refuses with
        `WrongApp`; `app=None` names no app (then `socket_path` is required)."""
        if socket_path is None:
            if app is None:
                raise ValueError("give an app's name or a socket path")
            socket_path = resolve_socket(app, daemon_name)
        client = cls(socket_path, client_name or f"{app or 'python'}-python/1", app, features, reconnect,
                     give_up_after)
        try:
            sock, welcome = client._open()
        except OSError as error:
            raise DaemonUnreachable(socket_path, str(error)) from None
        client.server = welcome
        client._socket = sock
        client._reader = threading.Thread(target=client._read_loop, args=(sock,), name="sync-client", daemon=True)
        client._reader.start()
        client._writer = threading.Thread(target=client._write_loop, name="sync-client-writer", daemon=True)
        client._writer.start()
        return client

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # Requests.

    def dispatch(self, name: str, payload: Mapping[str, Any] | None = None) -> int:
        """Applies the action `name` and returns the version it made, once durable (every
        update reflecting it was delivered to this client's subscriptions first)."""
        message = {"type": "dispatch", "action": {"name": name, "payload": dict(payload or {})}}
        return self._request(message, numbered=True)["version"]

    def dispatch_batch(self, actions: Iterable[tuple[str, Mapping[str, Any] | None]]) -> int:
        """Applies `(name, payload)` actions all or nothing, at consecutive versions; returns
        the last one's version. When one is refused, none is applied."""
        items = [{"name": name, "payload": dict(payload or {})} for name, payload in actions]
        return self._request({"type": "batch", "actions": items}, numbered=True)["version"]

    def run(self, name: str, payload: Mapping[str, Any] | None = None) -> Result:
        """Runs the side effect `name` in the daemon and returns its result once it finished.
        Not numbered: after a reconnect it runs again."""
        reply = self._request({"type": "dispatch", "action": {"name": name, "payload": dict(payload or {})}})
        if reply.get("type") != "result":
            raise ProtocolViolation(f"expected result, got {reply.get('type')}")
        return Result(reply["version"], reply.get("result"))

    def get(self, view_model: str, params: Mapping[str, Any] | None = None, at: int | None = None) -> Model:
        """The model of `view_model` now or, with `at`, as it was at that version."""
        message: dict = {"type": "get", "viewModel": view_model, "params": dict(params or {})}
        if at is not None:
            message["at"] = at
        reply = self._request(message)
        return Model(reply["version"], reply.get("model"))

    def history(self, after: int | None = None, limit: int = 20) -> list[dict]:
        """Up to `limit` journaled actions after version `after` (else the latest), oldest first."""
        message: dict = {"type": "history", "limit": limit}
        if after is not None:
            message["after"] = after
        return self._request(message)["entries"]

    def ping(self) -> None:
        """Round-trips a ping."""
        self._request({"type": "ping"})

    def subscribe(self, view_model: str, params: Mapping[str, Any] | None = None) -> Subscription:
        """Subscribes, once the daemon accepted it (else its error is raised); iterate the
        result for the current model, then each new one."""
        subscription = Subscription(self, view_model, dict(params or {}))
        with self._condition:
            self._check_open()
            self._subscriptions.append(subscription)
            self._send_subscribe(subscription)
            while not subscription._attached and not subscription._ended:
                self._condition.wait()
        if not subscription._attached and subscription._error is not None:
            raise subscription._error
        return subscription

    def close(self) -> None:
        """Closes the connection for good: waiting requests and subscriptions end."""
        with self._condition:
            if self._closed is None:
                self._fail_everything(ConnectionClosed("the client was closed"), subscriptions_error=False)
            sock, self._socket = self._socket, None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    # Inside.

    def _check_open(self) -> None:
        if self._closed is not None:
            raise self._closed

    def _request(self, message: dict, numbered: bool = False) -> dict:
        with self._condition:
            self._check_open()
            if numbered:
                message["sequence"] = self._next_sequence
                self._next_sequence += 1
            call = self._submit(message, "request")
            while call.reply is None and call.error is None:
                self._condition.wait()
        if call.error is not None:
            raise call.error
        assert call.reply is not None
        if call.reply.get("type") == "error":
            raise error_from(call.reply)
        return call.reply

    def _submit(self, message: dict, kind: str, on_reply: Callable[[dict], None] | None = None) -> _Call:
        """Numbers and sends `message` (held under the lock); while disconnected it waits in
        the pending table and goes out after the reconnect."""
        message["id"] = self._next_id
        self._next_id += 1
        call = _Call(message, kind, on_reply)
        self._pending[message["id"]] = call
        self._write(message)
        return call

    def _write(self, message: dict) -> None:
        """Queues `message` for the current connection (held under the lock)."""
        if self._socket is None:
            return
        self._outbox.append((self._socket, framing.encode(message)))
        self._outbox_ready.notify()

    def _write_loop(self) -> None:
        """The writer thread: sends what `_write` queued, in order, until the client closed."""
        while True:
            with self._outbox_ready:
                while not self._outbox and self._closed is None:
                    self._outbox_ready.wait()
                if not self._outbox:
                    return
                sock, frame = self._outbox.popleft()
            try:
                sock.sendall(frame)
            except OSError:
                pass  # the reader sees the loss and reconnects; the call stays pending

    def _send_subscribe(self, subscription: Subscription) -> None:
        def attach(reply: dict) -> None:
            if reply.get("type") == "subscribed":
                self._by_server_id[reply["subscription"]] = subscription
                subscription._attach(reply["subscription"])
            else:
                self._subscriptions.remove(subscription)
                subscription._end(error_from(reply))
        message = {"type": "subscribe", "viewModel": subscription.view_model, "params": subscription.params}
        self._submit(message, "subscribe", attach)

    def _unsubscribe(self, subscription: Subscription) -> None:
        with self._condition:
            if subscription in self._subscriptions:
                self._subscriptions.remove(subscription)
            server_id = subscription._server_id
            if server_id is not None and self._by_server_id.pop(server_id, None) is subscription:
                self._submit({"type": "unsubscribe", "subscription": server_id}, "unsubscribe")
            subscription._end(None)

    def _open(self) -> tuple[socket.socket, dict]:
        """A new connection, greeted: hello with this client's id, and its welcome."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(self.socket_path)
            hello: dict = {"type": "hello", "id": 0, "protocol": PROTOCOL_VERSION, "client": self.client_name,
                           "clientId": self.client_id}
            if self.app is not None:
                hello["app"] = self.app
            if self.features:
                hello["features"] = self.features
            sock.sendall(framing.encode(hello))
            reply = framing.FrameReader(sock).read()
        except (OSError, ConnectionClosed) as error:
            sock.close()
            raise OSError(str(error)) from None
        except BaseException:
            sock.close()
            raise
        if reply.get("type") == "error":
            sock.close()
            raise error_from(reply)
        if reply.get("type") != "welcome":
            sock.close()
            raise ProtocolViolation(f"expected welcome, got {reply.get('type')}")
        return sock, reply

    def _read_loop(self, sock: socket.socket) -> None:
        reader = framing.FrameReader(sock)
        while True:
            try:
                while True:
                    self._handle(reader.read())
            except ConnectionClosed as lost:
                reason: SyncError = lost
            except ProtocolViolation as violation:
                reason = violation
            except _Bye as bye:
                reason = ConnectionClosed(f"the daemon said bye: {bye}")
            sock.close()
            next_socket = self._recover(reason)
            if next_socket is None:
                return
            sock, reader = next_socket, framing.FrameReader(next_socket)

    def _handle(self, message: dict) -> None:
        with self._condition:
            kind = message["type"]
            if kind == "update":
                subscription = self._by_server_id.get(message.get("subscription"))
                if subscription is not None and not subscription._deliver(message):
                    self._resubscribe(subscription)
            elif kind == "bye":
                raise _Bye(message.get("reason", ""))
            elif isinstance(message.get("id"), int) and message["id"] in self._pending:
                call = self._pending.pop(message["id"])
                if call.on_reply is not None:
                    call.on_reply(message)
                call.reply = message
                self._condition.notify_all()

    def _resubscribe(self, subscription: Subscription) -> None:
        """A patch on a base this client does not hold: unsubscribe, subscribe again."""
        server_id = subscription._server_id
        if server_id is not None:
            self._by_server_id.pop(server_id, None)
            self._submit({"type": "unsubscribe", "subscription": server_id}, "unsubscribe")
        subscription._detach()
        self._send_subscribe(subscription)

    def _recover(self, reason: SyncError) -> socket.socket | None:
        """After a lost connection: a new one with everything resent, or None (closed, or
        given up, which fails every request and subscription with `reason`)."""
        with self._condition:
            self._socket = None
            for subscription in self._subscriptions:
                subscription._detach()
            self._by_server_id.clear()
            if self._closed is not None or not self.reconnect:
                self._fail_everything(reason)
                return None
        deadline = None if self.give_up_after is None else time.monotonic() + self.give_up_after
        delay = 0.05
        while True:
            try:
                sock, _ = self._open()
                break
            except OSError:
                if self._closed is not None or (deadline is not None and time.monotonic() > deadline):
                    with self._condition:
                        self._fail_everything(reason)
                    return None
                time.sleep(delay)
                delay = min(delay * 2, 2.0)
            except SyncError as refused:
                with self._condition:
                    self._fail_everything(refused)
                return None
        with self._condition:
            if self._closed is not None:
                sock.close()
                return None
            self._socket = sock
            for request_id in [key for key, call in self._pending.items() if call.kind != "request"]:
                del self._pending[request_id]
            unanswered = sorted(self._pending.values(), key=lambda call: call.message["id"])
            for subscription in self._subscriptions:
                self._send_subscribe(subscription)
            for call in unanswered:  # in id order, which is sequence order
                self._write(call.message)
        return sock

    def _fail_everything(self, reason: SyncError, subscriptions_error: bool = True) -> None:
        """Ends every request with `reason`, and every subscription with it (or, when the
        client was closed, as iterators end)."""
        if self._closed is None:
            self._closed = reason
        for call in self._pending.values():
            call.error = reason
        self._pending.clear()
        for subscription in list(self._subscriptions):
            subscription._end(reason if subscriptions_error else None)
        self._subscriptions.clear()
        self._condition.notify_all()
        self._outbox_ready.notify_all()


class _Bye(Exception):
    """The daemon said bye: it is stopping."""
