"""Frames to send, as written in a case: `${NAME}` variables and two generators.

    "<text:N:CHARS>"                 CHARS repeated to N characters (also inside a string)
    {"$repeat": N, "of": VALUE}      an array of N copies of VALUE, `${i}` in each its index (1-based)
"""

import re

from .matching import substitute

_TEXT = re.compile(r"<text:(\d+):([^>]*)>")


def expand(value, variables: dict):
    """`value` with its generators run and its variables replaced."""
    if isinstance(value, dict) and "$repeat" in value:
        count = int(substitute(value["$repeat"], variables))
        return [expand(value["of"], dict(variables, i=index)) for index in range(1, count + 1)]
    if isinstance(value, dict):
        return {key: expand(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [expand(item, variables) for item in value]
    if isinstance(value, str):
        value = substitute(value, variables)
        return _TEXT.sub(_text, value) if isinstance(value, str) else value
    return value


def _text(match: re.Match) -> str:
    count, chars = int(match.group(1)), match.group(2) or "x"
    return (chars * (count // len(chars) + 1))[:count]
