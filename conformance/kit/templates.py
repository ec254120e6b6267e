"""Frames to send, as written in a case: `${NAME}` variables and two generators.

    "<text:N:CHARS>"                 CHARS repeated to N characters
    {"$repeat": N, "of": VALUE}      an array of N copies of VALUE, `${i}` in each its index (1-based)
"""

from .matching import substitute


def expand(value, variables: dict):
    """`value` with its generators run and its variables replaced."""
    if isinstance(value, dict) and "$repeat" in value:
        count = int(substitute(value["$repeat"], variables))
        return [expand(value["of"], dict(variables, i=index)) for index in range(1, count + 1)]
    if isinstance(value, dict):
        return {key: expand(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [expand(item, variables) for item in value]
    if isinstance(value, str) and value.startswith("<text:") and value.endswith(">"):
        count, _, chars = value[len("<text:"):-1].partition(":")
        chars = chars or "x"
        return (chars * (int(count) // len(chars) + 1))[: int(count)]
    return substitute(value, variables)
