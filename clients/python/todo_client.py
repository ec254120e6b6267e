"""The todo app's client: `sync_client.Client` with todo's name and socket, and models as
dicts. A thin layer kept for scripts written against it; new code can use `sync_client`.

    client = TodoClient.connect()                 # $TODO_SOCKET, $XDG_RUNTIME_DIR/todo/todod.sock, ...
    version = client.dispatch("add", {"text": "from Python"})
    for update in client.subscribe("list", {"filter": "open"}):
        print(update["version"], update["model"]["openCount"])
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from sync_client import Client, ConnectionClosed, ServerError, socket_path

#: An `error` reply (the exception classes of `sync_client` are its subclasses).
ProtocolError = ServerError

__all__ = ["TodoClient", "ProtocolError", "ConnectionClosed", "default_socket_path"]


def default_socket_path() -> str:
    """The socket path, resolved as todod and todo resolve it."""
    return socket_path("todo")


class TodoClient(Client):
    """A client of todod."""

    @classmethod
    def connect(cls, path: str | None = None, client_name: str = "python/1",  # type: ignore[override]
                app: str | None = "todo") -> Client:
        """Connects and says hello as a client of `app` (another app's daemon refuses it with
        `wrong_app`; None names no app); `server` holds the `welcome` message."""
        return super().connect(app=app, socket_path=path or default_socket_path(), client_name=client_name)

    def subscribe_models(self, view_model: str, params: Mapping[str, Any] | None = None) -> Iterator[dict]:
        """Yields {"version", "model"} now and on every change, as long as the client lives."""
        for update in super().subscribe(view_model, params):
            yield {"version": update.version, "model": update.model}

    def subscribe(self, view_model: str, params: Mapping[str, Any] | None = None):  # type: ignore[override]
        """As `subscribe_models`: models as dicts."""
        return self.subscribe_models(view_model, params)
