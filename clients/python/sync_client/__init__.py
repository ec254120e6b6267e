"""A client for any app built on the sync framework: the wire protocol of docs/PROTOCOL.md.

    from sync_client import Client
    with Client.connect(app="todo") as client:
        version = client.dispatch("add", {"text": "from Python"})
        for update in client.subscribe("list", {"filter": "open"}):
            print(update.version, update.model)
"""

from .client import PROTOCOL_VERSION, Client, Model, Result
from .errors import *  # noqa: F401,F403 (the exception per error code)
from .errors import ERRORS, ConnectionClosed, DaemonUnreachable, ProtocolViolation, ServerError, SyncError
from .identity import socket_path
from .subscription import Subscription, Update

__all__ = [
    "PROTOCOL_VERSION", "Client", "Model", "Result", "Subscription", "Update", "socket_path", "ERRORS",
    "SyncError", "ServerError", "ConnectionClosed", "DaemonUnreachable", "ProtocolViolation",
] + [error.__name__ for error in ERRORS.values()]
