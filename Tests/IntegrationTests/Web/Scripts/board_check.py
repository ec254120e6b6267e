"""The board's page through the gateway: python3 board_check.py URL CARD_TITLE.

The page is the board's own (data-board, board.js) with the gateway's protocol modules; the
board model arrives; moving the card titled CARD_TITLE one column right is acked and comes
back in an update; an action off the board's allowlist is refused. Exits 0 if all hold."""

import faulthandler
import sys

from gateway_client import Gateway

# A hang dumps every thread's stack and exits, rather than holding the suite.
faulthandler.dump_traceback_later(300, exit=True)

url, title = sys.argv[1], sys.argv[2]
gateway = Gateway(url)
assert gateway.sign_in()[0] == 303
status, headers, body = gateway.request("/", {"Cookie": gateway.cookie})
assert status == 200 and b"data-board" in body and b"/board.js" in body, (status, body[:200])
assert headers["content-security-policy"].startswith("default-src 'self'"), headers
for path in ["/board.js", "/gateway.js", "/patch.js"]:
    assert gateway.request(path, {"Cookie": gateway.cookie})[0] == 200, path
print("ok: the board's page, with the gateway's modules", flush=True)

socket = gateway.open_socket()
assert socket.receive()["app"] == "board"
socket.send({"type": "subscribe", "key": "board", "viewModel": "board", "params": {}})
model = socket.receive_until(lambda m: m.get("type") == "update")["model"]
names = [column["name"] for column in model["columns"]]
card = next(c for c in model["columns"][0]["cards"] if c["title"] == title)
print(f"ok: the board arrives: columns {names}, {card['title']!r} in {names[0]}", flush=True)

socket.send({"type": "dispatch", "id": 1, "action": "moveCard", "payload": {"card": card["id"], "column": names[1]}})
# The gateway relays the daemon's update and the ack on two paths, so the update that shows the
# move may arrive before its ack: keep what comes before the ack.
before_ack = []


def ack_after(message):
    before_ack.append(message)
    return message.get("type") in ("ack", "error")


ack = socket.receive_until(ack_after)
assert ack["type"] == "ack", ack
version = ack["version"]


def shows_move(message):
    return message.get("type") == "update" and message["version"] >= version


update = next(filter(shows_move, before_ack), None) or socket.receive_until(shows_move)
assert "patch" in update and update["base"] is not None, update
print(f"ok: the move is acked at version {version} and comes back as a patch", flush=True)

socket.send({"type": "dispatch", "id": 2, "action": "addColumn", "payload": {"name": "x"}})
refused = socket.receive_until(lambda m: m.get("type") == "error")
assert refused["id"] == 2 and refused["code"] == "unknown_action", refused
print("ok: an action off the board's allowlist is refused", flush=True)
socket.close()
