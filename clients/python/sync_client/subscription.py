"""A subscription to a view model: an iterator of its models, patches applied."""

from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator

import jsonpatch

from .errors import ProtocolViolation, SyncError

if TYPE_CHECKING:
    from .client import Client


@dataclass(frozen=True)
class Update:
    """A view model at a state version (`model` is None when it has no value for the params)."""

    version: int
    model: Any


class Subscription(Iterator[Update]):
    """The current model at once, then each new one, in order, as long as the client lives.

    Iterate it (`for update in subscription`), or call `next_update(timeout)`. A patch from
    the daemon is applied (RFC 6902, `jsonpatch`) to the model held; after a reconnect the
    subscription starts again with the current whole model. `close()` unsubscribes.
    """

    def __init__(self, client: Client, view_model: str, params: dict):
        self.view_model = view_model
        self.params = params
        self._client = client
        self._condition: threading.Condition = client._condition
        self._updates: collections.deque[Update] = collections.deque()
        self._version: int | None = None
        self._model: Any = None
        self._server_id: int | None = None
        self._attached = False
        self._error: SyncError | None = None
        self._ended = False

    # Called by the client, holding its lock.

    def _attach(self, server_id: int) -> None:
        self._server_id = server_id
        self._attached = True
        self._version = None
        self._condition.notify_all()

    def _detach(self) -> None:
        """The connection is gone: the next update is whole again."""
        self._server_id = None
        self._version = None

    def _deliver(self, message: dict) -> bool:
        """Applies an update; False when a patch's base is not the model held (the client
        then subscribes again)."""
        if "patch" in message:
            if self._version is None or message.get("base") != self._version:
                return False
            try:
                self._model = jsonpatch.apply_patch(self._model, message["patch"])
            except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as error:
                raise ProtocolViolation(f"a patch that does not apply to {self.view_model}: {error}") from None
        else:
            self._model = message.get("model")
        self._version = message.get("version")
        self._updates.append(Update(self._version, self._model))
        self._condition.notify_all()
        return True

    def _end(self, error: SyncError | None) -> None:
        if not self._ended:
            self._ended = True
            self._error = error
            self._condition.notify_all()

    # The iterator.

    def __iter__(self) -> Subscription:
        return self

    def __next__(self) -> Update:
        update = self.next_update(None)
        assert update is not None
        return update

    def next_update(self, timeout: float | None) -> Update | None:
        """The next model; None when none came within `timeout` seconds (None: wait for it).
        Raises StopIteration once closed, or the error that ended the subscription."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._condition:
            while not self._updates:
                if self._ended:
                    if self._error is not None:
                        raise self._error
                    raise StopIteration
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return None
                self._condition.wait(remaining)
            return self._updates.popleft()

    def close(self) -> None:
        """Unsubscribes; iteration ends after the models already received."""
        self._client._unsubscribe(self)
