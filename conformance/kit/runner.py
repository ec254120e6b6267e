"""Runs the cases: a daemon for each, the adapter and the proxy for client cases, and the
report (each failure with its expected and actual frame, then the count per section)."""

import os
import time
import shlex

from . import cases as case_files
from . import sections as protocol
from .adapter import Adapter, ClientSession
from .daemon import Daemon, DaemonError
from .failure import CaseFailure
from .proxy import Proxy
from .wire import WireSession


class Context:
    """What the steps of one case share: its daemon, its variables, its deadlines."""

    def __init__(self, daemon: Daemon, app: str, timeout: float):
        self.daemon = daemon
        self.variables = {"app": app}
        self.timeout = timeout

    def deadline(self) -> float:
        """A generous deadline for one wait: it guards against a hang, it measures nothing."""
        return time.monotonic() + self.timeout


class Runner:
    """The options of one run."""

    def __init__(self, daemon: str, daemon_arguments: list, adapter: str | None, timeout: float):
        self.daemon = daemon
        self.daemon_arguments = daemon_arguments
        self.adapter = shlex.split(adapter) if adapter else None
        self.timeout = timeout

    def served_app(self) -> str:
        """The app the daemon serves, from the welcome to a hello that names none."""
        daemon = Daemon(self.daemon, self.daemon_arguments)
        try:
            context = Context(daemon, "", self.timeout)
            wire = WireSession(context)
            wire.run({"greet": "probe", "hello": {"app": None}, "welcome": {"app": "<save:served>"}})
            wire.close()
            return context.variables["served"]
        finally:
            daemon.stop()

    def run_case(self, case: dict, app: str) -> None:
        """Runs one case; raises CaseFailure or DaemonError."""
        daemon = Daemon(self.daemon, self.daemon_arguments + case.get("daemon", []))
        context = Context(daemon, app, self.timeout)
        wire = WireSession(context)
        proxy = adapter = None
        try:
            session = None
            if case.get("driver") == "client":
                proxy = Proxy(os.path.join(daemon.directory, "proxy.sock"), daemon.socket_path)
                adapter = Adapter(self.adapter, os.path.join(daemon.directory, "adapter.log"))
                session = ClientSession(context, adapter, proxy)
            for number, step in enumerate(case["steps"], start=1):
                try:
                    if not (session and session.run(step)) and not wire.run(step):
                        raise CaseFailure(f"a step this runner does not know: {step}")
                except CaseFailure as failure:
                    failure.summary = f"step {number}: {failure.summary}"
                    raise
                except KeyError as error:
                    raise CaseFailure(f"step {number}: {error.args[0]}") from None
                except (TypeError, ValueError, AttributeError) as error:
                    raise CaseFailure(f"step {number}: the step cannot run as written: {error!r}") from None
        finally:
            wire.close()
            if adapter:
                adapter.stop(self.timeout)
            if proxy:
                proxy.close()
            daemon.stop()


def report_sections(cases: list, headings: list, codes: list, out) -> None:
    """The case count per section, then the sections and error codes no case checks."""
    counts = {heading: 0 for heading in headings}
    for case in cases:
        counts[case["section"]] += 1
    print("\ncases per PROTOCOL.md section:", file=out)
    for heading in headings:
        if counts[heading]:
            print(f"  {counts[heading]:4}  {heading}", file=out)
    missing = [heading for heading in headings if not counts[heading]]
    if missing:
        print("sections without a case: " + "; ".join(missing), file=out)
    unexpected = [code for code in codes if code not in case_files.error_codes(cases)]
    if unexpected:
        print("error codes no case expects: " + ", ".join(unexpected), file=out)
