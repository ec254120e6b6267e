"""The command line: options, the run over every case, the report, the exit code."""

import argparse
import os
import signal
import sys
import time

from . import cases as case_files
from . import sections as protocol
from .daemon import DaemonError
from .failure import CaseFailure
from .runner import Runner, report_sections

KIT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(KIT)


def parse(arguments: list) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="conformance/run",
        description="Runs the protocol conformance cases against a real daemon and, through its adapter, a client.")
    parser.add_argument("--daemon", default=os.path.join(ROOT, ".build/debug/todod"),
                        help="the daemon binary, any app built on the framework (default: .build/debug/todod)")
    parser.add_argument("--daemon-arg", action="append", default=[], metavar="ARG",
                        help="an extra argument for every daemon (repeatable)")
    parser.add_argument("--adapter", metavar="COMMAND",
                        help="the client's adapter command (split like a shell line); without it client cases are skipped")
    parser.add_argument("--only", choices=("wire", "client"), help="run only the wire or only the client cases")
    parser.add_argument("--filter", metavar="TEXT", help="run only the cases whose name contains TEXT")
    parser.add_argument("--cases", default=os.path.join(KIT, "cases"), help="the directory of case files")
    parser.add_argument("--protocol", default=os.path.join(ROOT, "docs/PROTOCOL.md"), help="the protocol document")
    parser.add_argument("--timeout", type=float, default=30, help="seconds before a wait counts as a hang (default 30)")
    parser.add_argument("--list", action="store_true", help="list the cases and the sections without running")
    return parser.parse_args(arguments)


def _stop(number, frame):
    # SIGTERM unwinds like Ctrl-C, so each case's `finally` stops its daemon and adapter.
    raise KeyboardInterrupt


def main(arguments: list) -> int:
    signal.signal(signal.SIGTERM, _stop)
    options = parse(arguments)
    try:
        headings = protocol.read(options.protocol)
        codes = protocol.error_codes(options.protocol)
        cases = case_files.load(options.cases, headings)
    except (OSError, case_files.CaseFileError) as error:
        print(f"conformance/run: {error}", file=sys.stderr)
        return 2
    if options.list:
        for case in cases:
            print(f"{case.get('driver', 'wire'):6} {case['name']}  [{case['section']}]")
        report_sections(cases, headings, codes, sys.stdout)
        return 0
    if not os.access(options.daemon, os.X_OK):
        print(f"conformance/run: no daemon binary at {options.daemon} (build it, or give --daemon)", file=sys.stderr)
        return 2
    runner = Runner(options.daemon, options.daemon_arg, options.adapter, options.timeout)
    try:
        app = runner.served_app()
    except (DaemonError, CaseFailure) as error:
        print(f"conformance/run: {getattr(error, 'summary', error)}", file=sys.stderr)
        return 2
    print(f"daemon {options.daemon}, serving {app}; adapter: {options.adapter or '(none: client cases skipped)'}")
    passed = failed = skipped = 0
    started = time.monotonic()
    for case in cases:
        driver = case.get("driver", "wire")
        reason = _skip_reason(case, driver, app, options)
        if reason:
            skipped += 1
            if reason != "filtered":
                print(f"skip {case['name']}: {reason}")
            continue
        try:
            runner.run_case(case, app)
            passed += 1
            print(f"ok   {case['name']}")
        except (CaseFailure, DaemonError) as failure:
            failed += 1
            detail = failure.describe() if isinstance(failure, CaseFailure) else str(failure)
            print(f"FAIL {case['name']} ({case['file']}, section \"{case['section']}\")\n  {detail}")
    report_sections(cases, headings, codes, sys.stdout)
    print(f"({time.monotonic() - started:.1f} s)")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


def _skip_reason(case: dict, driver: str, app: str, options) -> str | None:
    if options.filter and options.filter not in case["name"]:
        return "filtered"
    if options.only and driver != options.only:
        return "filtered"
    if case.get("app") and case["app"] != app:
        return f"written for {case['app']}, the daemon serves {app}"
    if driver == "client" and not options.adapter:
        return "a client case, and no --adapter"
    return None
