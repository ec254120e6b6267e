"""Clean shutdown: python3 shutdown_check.py URL GATEWAY_PID SIGNAL (INT or TERM).

Two page-protocol connections follow the list; the gateway is sent the signal; each
connection must get a close frame with code 1001 (going away) rather than a dropped socket.
The caller then checks that the gateway exited with status 0."""

import os
import signal
import sys

from gateway_client import Gateway

url, gateway_pid, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]

gateway = Gateway(url)
assert gateway.sign_in()[0] == 303
sockets = []
for _ in range(2):
    socket = gateway.open_socket()
    socket.send({"type": "subscribe", "key": "list", "viewModel": "list", "params": {"filter": "all"}})
    socket.receive_until(lambda m: m.get("type") == "update")
    sockets.append(socket)
os.kill(gateway_pid, getattr(signal, "SIG" + name))
for socket in sockets:
    while socket.receive() is not None:
        pass
    assert socket.close_code == 1001, f"closed with {socket.close_code} {socket.close_reason}"
    print(f"ok: closed with {socket.close_code} ({socket.close_reason})", flush=True)
