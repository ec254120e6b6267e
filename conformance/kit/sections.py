"""PROTOCOL.md's sections and error codes, which the cases name and the runner counts."""

import re


def read(path: str) -> list:
    """The headings of `path` (## and ###), backticks removed: `hello → welcome`."""
    with open(path) as handle:
        return [line.lstrip("#").strip().replace("`", "")
                for line in handle if re.match(r"^#{2,3} ", line)]


def error_codes(path: str) -> list:
    """The codes of the table in the section `error` (its rows begin with a code in backticks)."""
    codes, inside = [], False
    with open(path) as handle:
        for line in handle:
            if re.match(r"^#{2,3} ", line):
                inside = line.strip() == "### `error`"
            elif inside and (match := re.match(r"^\| `([a-z_]+)` \|", line)):
                codes.append(match.group(1))
    return codes
