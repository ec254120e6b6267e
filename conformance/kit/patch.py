"""RFC 6902 JSON Patch, the operations the protocol uses (add, remove, replace), for the
runner's own tracking of models (a client under test uses its own)."""

import copy
import re


class PatchError(Exception):
    """The patch does not apply to the model."""


def apply(model, operations: list):
    """The model `operations` make of `model` (which is left as it was)."""
    document = copy.deepcopy(model)
    for operation in operations:
        document = _apply_one(document, operation)
    return document


def _tokens(pointer: str) -> list:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PatchError(f"a path that is not a JSON Pointer: {pointer!r}")
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _index(token: str, array: list, adding: bool) -> int:
    """The array index `token` names (RFC 6901: 0 or digits without a leading zero), which
    must be inside `array` (or just past its end for an add)."""
    if not re.fullmatch(r"0|[1-9][0-9]*", token):
        raise PatchError(f"not an array index: {token!r}")
    index = int(token)
    if index > len(array) or (index == len(array) and not adding):
        raise PatchError(f"index {index} outside an array of {len(array)}")
    return index


def _apply_one(document, operation: dict):
    op, tokens = operation.get("op"), _tokens(operation.get("path", ""))
    if not tokens:
        if op in ("add", "replace"):
            return copy.deepcopy(operation["value"])
        raise PatchError(f"{op} of the whole document")
    parent = document
    for token in tokens[:-1]:
        parent = parent[_index(token, parent, adding=False)] if isinstance(parent, list) else parent[token]
    last = tokens[-1]
    if isinstance(parent, list):
        index = len(parent) if last == "-" and op == "add" else _index(last, parent, adding=op == "add")
        if op == "add":
            parent.insert(index, copy.deepcopy(operation["value"]))
        elif op == "remove":
            del parent[index]
        elif op == "replace":
            parent[index] = copy.deepcopy(operation["value"])
        else:
            raise PatchError(f"an operation the protocol does not use: {op}")
    else:
        if op in ("remove", "replace") and last not in parent:
            raise PatchError(f"{op} of a missing member {operation['path']}")
        if op == "remove":
            del parent[last]
        elif op in ("add", "replace"):
            parent[last] = copy.deepcopy(operation["value"])
        else:
            raise PatchError(f"an operation the protocol does not use: {op}")
    return document
