"""Where an app's daemon listens, found from the app's name exactly as Swift's `AppIdentity`
does: an explicit path, else `$NAME_SOCKET`, else `$XDG_RUNTIME_DIR/NAME/DAEMON.sock`, else
`/tmp/NAME-UID/DAEMON.sock` (DAEMON: the daemon's name, the app's name plus `d` by default)."""

from __future__ import annotations

import os
import re
from typing import Mapping

_NAME = re.compile(r"[a-z][a-z0-9-]*")


def is_valid_name(name: str) -> bool:
    """Whether `name` can name an app or a daemon: lowercase letters, digits and `-`,
    starting with a letter."""
    return bool(_NAME.fullmatch(name))


def socket_variable(app: str) -> str:
    """`TODO_SOCKET` for `todo`: the variable naming the socket."""
    return app.upper().replace("-", "_") + "_SOCKET"


def socket_path(app: str, daemon_name: str | None = None, explicit: str | None = None,
                environ: Mapping[str, str] | None = None, uid: int | None = None) -> str:
    """The socket of `app`'s daemon (named `daemon_name`, default `app + "d"`)."""
    daemon = daemon_name or app + "d"
    for name in (app, daemon):
        if not is_valid_name(name):
            raise ValueError(f"an app's or daemon's name is lowercase letters, digits and -, "
                             f"starting with a letter: {name!r}")
    if explicit:
        return explicit
    environ = os.environ if environ is None else environ
    if environ.get(socket_variable(app)):
        return environ[socket_variable(app)]
    if environ.get("XDG_RUNTIME_DIR"):
        return f"{environ['XDG_RUNTIME_DIR']}/{app}/{daemon}.sock"
    return f"/tmp/{app}-{os.getuid() if uid is None else uid}/{daemon}.sock"
