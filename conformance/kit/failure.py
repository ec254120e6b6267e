"""How a case fails: which step, what was expected, what came."""

import json


class CaseFailure(Exception):
    """A step of a case did not see what it expected."""

    def __init__(self, summary: str, expected=None, actual=None):
        super().__init__(summary)
        self.summary = summary
        self.expected = expected
        self.actual = actual

    def describe(self) -> str:
        """The failure as lines: the summary, then the expected and the actual frame."""
        lines = [self.summary]
        if self.expected is not None:
            lines.append("  expected: " + _text(self.expected))
        if self.actual is not None:
            lines.append("  actual:   " + _text(self.actual))
        return "\n".join(lines)


def _text(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 2000 else text[:2000] + f"… ({len(text)} characters)"
