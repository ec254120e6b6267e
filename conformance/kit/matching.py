"""Expected frames as patterns: literal JSON plus a few placeholders.

In an expected frame the top-level object matches when every key it names matches (the
protocol lets peers add fields); nested objects match key for key. Placeholders, as strings:

    "<any>"            any value, present             "<any?>"     any value, or absent
    "<absent>"         the key is absent              "<int>" "<string>" "<array>" "<object>"
    "<save:NAME>"      any value, kept as ${NAME}     "<prefix:TEXT>"  a string starting with TEXT
    "<contains:TEXT>"  a string holding TEXT          "<ge:N>"     an integer of at least N

`${NAME}` anywhere (a whole string, or inside one) stands for a saved or given variable.
"""

import re

_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_TYPES = {"<int>": int, "<string>": str, "<array>": list, "<object>": dict}


def substitute(value, variables: dict):
    """`value` with every `${NAME}` replaced; a string that is only `${NAME}` takes the
    variable's own type (an integer stays an integer)."""
    if isinstance(value, str):
        whole = _VARIABLE.fullmatch(value)
        if whole:
            return variables[_known(whole.group(1), variables)]
        return _VARIABLE.sub(lambda m: str(variables[_known(m.group(1), variables)]), value)
    if isinstance(value, list):
        return [substitute(item, variables) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, variables) for key, item in value.items()}
    return value


def _known(name: str, variables: dict) -> str:
    if name not in variables:
        raise KeyError(f"the case uses ${{{name}}} before saving it")
    return name


def mismatch(expected, actual, variables: dict, path: str = "", top: bool = True):
    """None when `actual` matches `expected`, else where and how it differs. Saves
    `<save:NAME>` values into `variables`."""
    if isinstance(expected, str) and expected.startswith("<") and expected.endswith(">"):
        return _placeholder(expected, actual, variables, path)
    if isinstance(expected, str) and "${" in expected:
        expected = substitute(expected, variables)
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path or 'the frame'}: expected an object, got {_short(actual)}"
        for key, value in expected.items():
            where = f"{path}/{key}"
            if key not in actual:
                if value in ("<absent>", "<any?>"):
                    continue
                return f"{where}: missing"
            if value == "<absent>":
                return f"{where}: expected absent, got {_short(actual[key])}"
            found = mismatch(value, actual[key], variables, where, top=False)
            if found:
                return found
        if not top:
            extra = sorted(set(actual) - set(expected))
            if extra:
                return f"{path}: unexpected key(s) {', '.join(extra)}"
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{path}: expected an array, got {_short(actual)}"
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} element(s), got {len(actual)}"
        for index, (want, got) in enumerate(zip(expected, actual)):
            found = mismatch(want, got, variables, f"{path}/{index}", top=False)
            if found:
                return found
        return None
    if type(expected) is not type(actual) or expected != actual:
        return f"{path}: expected {_short(expected)}, got {_short(actual)}"
    return None


def _placeholder(token: str, actual, variables: dict, path: str):
    body = token[1:-1]
    if token in ("<any>", "<any?>"):
        return None
    if token in _TYPES:
        wanted = _TYPES[token]
        if isinstance(actual, wanted) and not isinstance(actual, bool):
            return None
        return f"{path}: expected {token}, got {_short(actual)}"
    kind, _, argument = body.partition(":")
    if kind == "save":
        variables[argument] = actual
        return None
    argument = substitute(argument, variables)
    if kind == "prefix" and isinstance(actual, str) and actual.startswith(argument):
        return None
    if kind == "contains" and isinstance(actual, str) and argument in actual:
        return None
    if kind == "ge" and isinstance(actual, int) and actual >= int(argument):
        return None
    if kind in ("prefix", "contains", "ge"):
        return f"{path}: expected {token}, got {_short(actual)}"
    raise ValueError(f"unknown placeholder {token}")


def _short(value) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 300 else text[:300] + f"… ({len(text)} characters)"
