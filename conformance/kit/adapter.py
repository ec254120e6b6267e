"""The client under test, through its adapter: a command that reads one JSON request per line
on standard input and writes one JSON reply or event per line on standard output
(conformance/README.md has the format)."""

import json
import os
import signal
import subprocess
import threading
import time

from .failure import CaseFailure
from .matching import mismatch
from .templates import expand


class Adapter:
    """One adapter process for one case; `stop` ends it by its process id."""

    def __init__(self, command: list, log_path: str):
        self.log_path = log_path
        self.log = open(log_path, "wb")
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, bufsize=0)
        except OSError as error:
            self.log.close()
            raise CaseFailure(f"cannot start the adapter {command}: {error}") from None
        self.condition = threading.Condition()
        self.replies = {}
        self.updates = {}
        self.ends = {}
        self.garbage = []
        self.finished = False
        self.next_id = 1
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            with self.condition:
                if not isinstance(message, dict):
                    self.garbage.append(line.decode(errors="replace").rstrip("\n"))
                elif message.get("event") == "update":
                    self.updates.setdefault(message.get("subscription"), []).append(message)
                elif message.get("event") == "end":
                    self.ends[message.get("subscription")] = message
                else:
                    self.replies[message.get("id")] = message
                self.condition.notify_all()
        with self.condition:
            self.finished = True
            self.condition.notify_all()

    def send(self, op: str, arguments: dict) -> int:
        """Sends a request; returns its id."""
        request_id = self.next_id
        self.next_id += 1
        line = json.dumps({"id": request_id, "op": op, **arguments}) + "\n"
        try:
            self.process.stdin.write(line.encode())
            self.process.stdin.flush()
        except OSError as error:
            raise CaseFailure(f"the adapter stopped reading its input: {error}{self._stderr_tail()}") from None
        return request_id

    def reply(self, request_id: int, deadline: float) -> dict:
        """The reply to request `request_id`."""
        return self._wait(lambda: self.replies.pop(request_id, None), deadline, f"the reply to request {request_id}")

    def update(self, subscription: str, deadline: float) -> dict:
        """The next update event of `subscription`."""
        def take():
            queue = self.updates.get(subscription)
            return queue.pop(0) if queue else None
        return self._wait(take, deadline, f"an update on subscription {subscription!r}")

    def end(self, subscription: str, deadline: float) -> dict:
        """The end event of `subscription`."""
        return self._wait(lambda: self.ends.pop(subscription, None), deadline,
                          f"the end of subscription {subscription!r}")

    def _wait(self, take, deadline: float, what: str) -> dict:
        with self.condition:
            while True:
                if self.garbage:
                    raise CaseFailure(f"the adapter wrote a line that is not a JSON object: {self.garbage[0]!r}")
                found = take()
                if found is not None:
                    return found
                if self.finished:
                    raise CaseFailure(f"the adapter exited while the runner waited for {what}{self._stderr_tail()}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise CaseFailure(f"no {what} from the adapter in time{self._stderr_tail()}")
                self.condition.wait(remaining)

    def _stderr_tail(self) -> str:
        self.log.flush()
        try:
            with open(self.log_path, errors="replace") as log:
                text = log.read()[-1500:]
        except OSError:
            return ""
        return f"\n  adapter stderr: {text}" if text.strip() else ""

    def stop(self, timeout: float) -> None:
        """Closes its input (the adapter should exit), then SIGKILL by pid if it does not."""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.reader.join(timeout)
        self.log.close()


class ClientSession:
    """The client steps of one case: requests to the adapter and the proxy's checks."""

    def __init__(self, context, adapter: Adapter, proxy):
        self.context = context
        self.adapter = adapter
        self.proxy = proxy
        self.pending = {}

    def run(self, step: dict) -> bool:
        """Runs `step` if it is a client step; False if it is not one."""
        if "do" in step:
            self._do(step)
        elif "await" in step:
            self._check(step, self.adapter.reply(self.pending.pop(step["await"]), self.context.deadline()))
        elif "await_update" in step:
            self._await_update(step)
        elif "proxy_drop_on" in step:
            self.proxy.drop_on(expand(step["proxy_drop_on"], self.context.variables))
        elif "proxy_sent" in step or "proxy_received" in step:
            self._proxy_count(step)
        else:
            return False
        return True

    def _do(self, step: dict) -> None:
        arguments = expand(step.get("args", {}), self.context.variables)
        arguments.setdefault("client", "main")
        if step["do"] == "connect":
            arguments.setdefault("socket", self.proxy.path)
            arguments.setdefault("app", self.context.variables["app"])
            arguments = {key: value for key, value in arguments.items() if value is not None}
        request_id = self.adapter.send(step["do"], arguments)
        if "async" in step:
            self.pending[step["async"]] = request_id
            return
        self._check(step, self.adapter.reply(request_id, self.context.deadline()))

    def _check(self, step: dict, reply: dict) -> None:
        what = f"{step.get('do') or step.get('await')}"
        if step.get("do") == "subscribe" and "error" in step and "ok" in reply:
            # A client may refuse the subscription in its reply or end it with the error.
            reply = self.adapter.end(step["args"]["subscription"], self.context.deadline())
        if "error" in step:
            if "error" not in reply:
                raise CaseFailure(f"{what}: succeeded, expected an error", expected={"error": step["error"]},
                                  actual=reply)
            found = mismatch(expand(step["error"], self.context.variables), reply["error"], self.context.variables)
        else:
            if "ok" not in reply:
                raise CaseFailure(f"{what}: failed", expected={"ok": step.get("expect", {})}, actual=reply)
            found = mismatch(expand(step.get("expect", {}), self.context.variables), reply["ok"],
                             self.context.variables)
        if found:
            raise CaseFailure(f"{what}: {found}", expected=step.get("error", step.get("expect")), actual=reply)

    def _await_update(self, step: dict) -> None:
        subscription = step["await_update"]
        expected = expand(step.get("expect", {}), self.context.variables)
        wanted = expected.get("version")
        while True:
            update = self.adapter.update(subscription, self.context.deadline())
            # A client may hand over only the newest of several updates, never an older one.
            if isinstance(wanted, int) and isinstance(update.get("version"), int) and update["version"] < wanted:
                continue
            break
        found = mismatch(expected, update, self.context.variables)
        if found:
            raise CaseFailure(f"update on {subscription}: {found}", expected=expected, actual=update)

    def _proxy_count(self, step: dict) -> None:
        direction = "sent" if "proxy_sent" in step else "received"
        pattern = expand(step["proxy_" + direction], self.context.variables)
        frames = self.proxy.frames(direction)
        matching = [frame for frame in frames if mismatch(pattern, frame, dict(self.context.variables)) is None]
        count = step.get("count")
        if (count is None and not matching) or (count is not None and len(matching) != count):
            raise CaseFailure(
                f"the client {'sent' if direction == 'sent' else 'was sent'} {len(matching)} frame(s) like this, "
                f"expected {count if count is not None else 'at least 1'}",
                expected=pattern, actual=frames[-10:])
        if step.get("same"):
            values = {json.dumps(frame.get(step["same"])) for frame in matching}
            if len(values) != 1:
                raise CaseFailure(f"the frames differ in {step['same']}", actual=matching)
