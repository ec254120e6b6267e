"""The runner's own connections to the daemon: raw frames sent and expected, for the cases
where the bytes themselves are under test (and to set up or check state in client cases)."""

import json
import signal
import socket
import time

from . import framing, patch
from .failure import CaseFailure
from .matching import mismatch
from .templates import expand

HELLO = {"type": "hello", "id": 1, "protocol": 1, "client": "conformance/1"}


class Connection:
    """One socket, its frame reader, and the models of its subscriptions as the updates left
    them (patches applied)."""

    def __init__(self, name: str, path: str):
        self.name = name
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.reader = framing.FrameReader(self.sock)
        self.models = {}
        self.versions = {}

    def read(self, deadline: float) -> dict:
        """The next message (updates tracked), or CaseFailure when none comes."""
        try:
            message = self.reader.next_message(deadline)
        except framing.FrameTimeout:
            raise CaseFailure(f"connection {self.name}: no frame arrived in time") from None
        except framing.Closed as closed:
            raise CaseFailure(f"connection {self.name}: the daemon {closed}", actual="(connection closed)") from None
        except ValueError as error:
            raise CaseFailure(f"connection {self.name}: {error}") from None
        if message.get("type") == "update":
            self._track(message)
        return message

    def _track(self, update: dict) -> None:
        subscription = update.get("subscription")
        if "patch" in update:
            if self.versions.get(subscription) != update.get("base"):
                raise CaseFailure(
                    f"connection {self.name}: a patch on base {update.get('base')}, but the last model "
                    f"of subscription {subscription} is at {self.versions.get(subscription)}", actual=update)
            try:
                self.models[subscription] = patch.apply(self.models[subscription], update["patch"])
            except (patch.PatchError, LookupError, ValueError) as error:
                raise CaseFailure(f"connection {self.name}: the patch does not apply: {error}", actual=update) from None
        else:
            self.models[subscription] = update.get("model")
        self.versions[subscription] = update.get("version")

    def close(self) -> None:
        self.sock.close()


class WireSession:
    """The named connections of one case and the steps that drive them."""

    def __init__(self, context):
        self.context = context
        self.connections = {}

    def connection(self, name: str) -> Connection:
        if name not in self.connections:
            raise CaseFailure(f"the case uses connection {name!r} before connecting it")
        return self.connections[name]

    def close(self) -> None:
        for connection in self.connections.values():
            connection.close()
        self.connections.clear()

    def run(self, step: dict) -> bool:
        """Runs `step` if it is a wire step; False if it is not one."""
        name = step.get("conn", "a")
        for key, handler in (
            ("connect", self._connect), ("greet", self._greet), ("send", self._send), ("send_text", self._send_text),
            ("send_hex", self._send_hex), ("expect", self._expect), ("expect_unordered", self._expect_unordered),
            ("expect_closed", self._expect_closed), ("shutdown_write", self._shutdown), ("close", self._close),
            ("collect", self._collect), ("model", self._model), ("signal", self._signal),
            ("expect_exit", self._expect_exit),
        ):
            if key in step:
                for index in range(1, int(step.get("repeat", 1)) + 1):
                    self.context.variables["i"] = index
                    handler(step, name)
                return True
        return False

    def _connect(self, step, name):
        name = step["connect"]
        try:
            self.connections[name] = Connection(name, self.context.daemon.socket_path)
        except OSError as error:
            raise CaseFailure(f"cannot connect {name} to the daemon: {error}") from None

    def _greet(self, step, name):
        name = step["greet"]
        self._connect({"connect": name}, name)
        hello = dict(HELLO, app=self.context.variables["app"])
        hello.update(expand(step.get("hello", {}), self.context.variables))
        hello = {key: value for key, value in hello.items() if value is not None}
        self.write(name, framing.encode(hello))
        welcome = {"type": "welcome", "id": hello["id"], "protocol": 1, "app": "${app}"}
        welcome.update(step.get("welcome", {}))
        self._match_next(name, welcome)

    def write(self, name: str, data: bytes) -> None:
        try:
            self.connection(name).sock.sendall(data)
        except OSError as error:
            raise CaseFailure(f"connection {name}: sending failed: {error}") from None

    def _send(self, step, name):
        message = expand(step["send"], self.context.variables)
        if "pad_to" in step:
            self.write(name, framing.frame(framing.padded(message, int(step["pad_to"]))))
        else:
            self.write(name, framing.encode(message))

    def _send_text(self, step, name):
        self.write(name, framing.frame(expand(step["send_text"], self.context.variables).encode()))

    def _send_hex(self, step, name):
        self.write(name, bytes.fromhex(step["send_hex"].replace(" ", "")))

    def _match_next(self, name, pattern):
        pattern = expand(pattern, self.context.variables)
        actual = self.connection(name).read(self.context.deadline())
        found = mismatch(pattern, actual, self.context.variables)
        if found:
            raise CaseFailure(f"connection {name}: {found}", expected=pattern, actual=actual)

    def _expect(self, step, name):
        patterns = step["expect"] if isinstance(step["expect"], list) else [step["expect"]]
        for pattern in patterns:
            self._match_next(name, pattern)

    def _expect_unordered(self, step, name):
        waiting = expand(step["expect_unordered"], self.context.variables)
        while waiting:
            actual = self.connection(name).read(self.context.deadline())
            for index, pattern in enumerate(waiting):
                trial = dict(self.context.variables)
                if mismatch(pattern, actual, trial) is None:
                    self.context.variables.update(trial)
                    del waiting[index]
                    break
            else:
                raise CaseFailure(
                    f"connection {name}: a frame that matches none of the {len(waiting)} still expected",
                    expected=waiting, actual=actual)

    def _expect_closed(self, step, name):
        connection = self.connection(name)
        try:
            message = connection.reader.next_message(self.context.deadline())
        except framing.Closed:
            return
        except framing.FrameTimeout:
            raise CaseFailure(f"connection {name}: still open", expected="(connection closed)") from None
        raise CaseFailure(f"connection {name}: a frame instead of the close", expected="(connection closed)",
                          actual=message)

    def _shutdown(self, step, name):
        self.connection(step["shutdown_write"]).sock.shutdown(socket.SHUT_WR)

    def _close(self, step, name):
        self.connections.pop(step["close"]).close()

    def _collect(self, step, name):
        """Reads updates until one matches `until`; each must match `each`, their versions must
        grow, and there may be at most `max_count` of them."""
        collected = []
        while True:
            actual = self.connection(name).read(self.context.deadline())
            collected.append(actual)
            found = mismatch(step.get("each", {}), actual, dict(self.context.variables))
            if found:
                raise CaseFailure(f"connection {name}: collected frame {len(collected)}: {found}",
                                  expected=step.get("each"), actual=actual)
            if len(collected) > 1 and actual.get("version", 0) <= collected[-2].get("version", 0):
                raise CaseFailure(f"connection {name}: versions do not grow",
                                  actual=[frame.get("version") for frame in collected])
            if mismatch(step["collect"], actual, dict(self.context.variables)) is None:
                break
        if len(collected) > int(step.get("max_count", len(collected))):
            raise CaseFailure(f"connection {name}: {len(collected)} frames, expected at most {step['max_count']}",
                              actual=[frame.get("version") for frame in collected])

    def _model(self, step, name):
        connection = self.connection(name)
        subscription = expand(step["model"], self.context.variables)
        if subscription not in connection.models:
            raise CaseFailure(f"connection {name}: no model of subscription {subscription} arrived")
        expected = expand(step["equals"], self.context.variables)
        actual = connection.models[subscription]
        found = mismatch(expected, actual, self.context.variables, top=False)
        if found:
            raise CaseFailure(f"connection {name}: subscription {subscription}'s model: {found}",
                              expected=expected, actual=actual)

    def _signal(self, step, name):
        self.context.daemon.signal(getattr(signal, "SIG" + step["signal"]))

    def _expect_exit(self, step, name):
        status = self.context.daemon.wait(self.context.timeout)
        if status != step["expect_exit"]:
            raise CaseFailure(f"the daemon exited with {status}", expected=step["expect_exit"], actual=status)
