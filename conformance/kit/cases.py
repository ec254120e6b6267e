"""The case files: loaded, and checked before anything runs, so that a mistake in a case is
one clear line naming the file and the case."""

import json
import os

DRIVERS = ("wire", "client")
STEP_KEYS = {
    "connect", "greet", "send", "send_text", "send_hex", "expect", "expect_unordered", "expect_closed",
    "shutdown_write", "close", "collect", "model", "signal", "expect_exit",
    "do", "await", "await_update", "proxy_drop_on", "proxy_sent", "proxy_received",
}
CLIENT_ONLY = {"do", "await", "await_update", "proxy_drop_on", "proxy_sent", "proxy_received"}


class CaseFileError(Exception):
    """A case file that cannot be used."""


def load(directory: str, sections: list) -> list:
    """Every case of every `*.json` file in `directory`, in file order, each with its `file`."""
    cases, names = [], set()
    for file_name in sorted(os.listdir(directory)):
        if not file_name.endswith(".json"):
            continue
        path = os.path.join(directory, file_name)
        try:
            with open(path) as handle:
                document = json.load(handle)
        except ValueError as error:
            raise CaseFileError(f"{path}: not JSON: {error}") from None
        if not isinstance(document, dict) or not isinstance(document.get("cases"), list):
            raise CaseFileError(f"{path}: expected an object with an array \"cases\"")
        for index, case in enumerate(document["cases"]):
            _check(case, f"{path}, case {index + 1}", sections)
            if case["name"] in names:
                raise CaseFileError(f"{path}: a second case named {case['name']!r}")
            names.add(case["name"])
            cases.append(dict(case, file=file_name))
    return cases


def _check(case, where: str, sections: list) -> None:
    if not isinstance(case, dict):
        raise CaseFileError(f"{where}: a case is an object")
    for field in ("name", "section", "steps"):
        if field not in case:
            raise CaseFileError(f"{where}: no {field!r}")
    where = f"{where} ({case['name']})"
    if case.get("driver", "wire") not in DRIVERS:
        raise CaseFileError(f"{where}: driver is one of {', '.join(DRIVERS)}")
    if case["section"] not in sections:
        raise CaseFileError(f"{where}: no section {case['section']!r} in PROTOCOL.md")
    if not isinstance(case["steps"], list) or not case["steps"]:
        raise CaseFileError(f"{where}: steps is a non-empty array")
    for number, step in enumerate(case["steps"], start=1):
        actions = STEP_KEYS & set(step) if isinstance(step, dict) else set()
        if actions & {"do", "await", "await_update"}:
            actions -= {"expect"}  # there it is what the reply must hold
        if len(actions) != 1:
            raise CaseFileError(f"{where}, step {number}: names no single action ({sorted(actions) or step})")
        if actions & CLIENT_ONLY and case.get("driver", "wire") != "client":
            raise CaseFileError(f"{where}, step {number}: a client step in a wire case")


def error_codes(cases: list) -> set:
    """The error codes the cases expect somewhere."""
    found = set()

    def walk(value):
        if isinstance(value, dict):
            if isinstance(value.get("code"), str):
                found.add(value["code"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(cases)
    return found
