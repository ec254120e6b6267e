"""Load on the gateway: python3 load_check.py URL SOCKET GATEWAY_PID (clients/python on the path).

200 WebSocket connections of the page protocol follow the list while changes arrive at
100 per second for 10 seconds (dispatched to the daemon directly, as any other front would);
every connection must end on the last version, each patch applying to the version it holds.
A 201st connection subscribes and never reads: the gateway's resident memory must stay within
a bound. Prints the figures; exits 0 if all hold."""

import faulthandler
import os
import resource
import select
import sys
import time

from gateway_client import Gateway
from todo_client import TodoClient

url, socket_path, gateway_pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
CONNECTIONS, RATE, SECONDS = 200, 100, 10
MEMORY_BOUND_KIB = 64 * 1024
# The test's own deadline (it kills the script then, without a word); the script gives up a
# minute before it, with what it saw.
DEADLINE = time.monotonic() + int(os.environ.get("TEST_DEADLINE_SECONDS", "600"))
PATIENCE = 300  # against a hang only (the last version arrives within seconds, see docs/WEB.md)

resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
# Against a hang where no deadline of the script's is checked: every thread's stack on
# standard error, then exit, before the test's deadline.
faulthandler.dump_traceback_later(DEADLINE - time.monotonic() - 30, exit=True)


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


gateway = Gateway(url)
assert gateway.sign_in()[0] == 303
sockets = []
for _ in range(CONNECTIONS):
    socket = gateway.open_socket()
    socket.send({"type": "subscribe", "key": "list", "viewModel": "list", "params": {"filter": "all"}})
    socket.version = None
    socket.faults = 0
    sockets.append(socket)
stalled = gateway.open_socket()
stalled.send({"type": "subscribe", "key": "list", "viewModel": "list", "params": {"filter": "all"}})
stalled.sock.setsockopt(__import__("socket").SOL_SOCKET, __import__("socket").SO_RCVBUF, 4096)
by_descriptor = {s.sock.fileno(): s for s in sockets}


def pump(timeout):
    readable, _, _ = select.select(list(by_descriptor), [], [], timeout)
    for descriptor in readable:
        socket = by_descriptor[descriptor]
        if not socket.feed():
            raise AssertionError("the gateway closed a reading connection")
        for message in socket.buffered_messages():
            if message is None:
                raise AssertionError(f"closed: {socket.close_code} {socket.close_reason}")
            if message.get("type") != "update":
                continue
            if "patch" in message and message["base"] != socket.version:
                socket.faults += 1
            socket.version = message["version"]


pump(0.5)
memory_before = resident_kib(gateway_pid)
daemon = TodoClient.connect(socket_path)
start = time.monotonic()
last = 0
for n in range(RATE * SECONDS):
    due = start + n / RATE
    while time.monotonic() < due:
        pump(max(0, due - time.monotonic()))
    last = daemon.dispatch("add", {"text": f"load {n}"})
    if n % 100 == 99:
        print(f"{n + 1} changes acked at {time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
sent_for = time.monotonic() - start
deadline = min(time.monotonic() + PATIENCE, DEADLINE - 60)
while any(s.version != last for s in sockets):
    if time.monotonic() > deadline:
        behind = sum(1 for s in sockets if s.version != last)
        versions = sorted(str(s.version) for s in sockets)
        raise AssertionError(f"{behind} connections did not reach version {last} (sent in {sent_for:.1f} s): "
                             f"they hold {versions[0]} to {versions[-1]}")
    pump(0.1)
caught_up = time.monotonic() - start
memory_after = resident_kib(gateway_pid)
faults = sum(s.faults for s in sockets)
print(f"changes: {RATE * SECONDS} in {sent_for:.1f} s; last version {last}", flush=True)
print(f"all {CONNECTIONS} connections on version {last} {caught_up - sent_for:.2f} s after the last change",
      flush=True)
print(f"patches whose base was not the version held: {faults}", flush=True)
print(f"gateway resident memory: {memory_before} KiB before, {memory_after} KiB after "
      f"(one connection never read; bound +{MEMORY_BOUND_KIB} KiB)", flush=True)
assert faults == 0
# Under a sanitizer (the suite's ASan and TSan passes set TODO_TEST_SANITIZER) freed memory is
# held in quarantine and shadow memory grows with every allocation, so resident memory says
# nothing of the gateway's own: the bound is the plain pass's.
if not os.environ.get("TODO_TEST_SANITIZER"):
    assert memory_after - memory_before < MEMORY_BOUND_KIB
print("ok: load", flush=True)
