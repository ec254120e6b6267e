"""The gateway's security rules, checked from outside a browser: python3 security_check.py URL.
Prints one line per check and exits 0 if all hold."""

import sys

from gateway_client import Gateway, HandshakeRefused

failures = []


def check(name, condition, detail=""):
    print(f"{'ok' if condition else 'FAIL'}: {name} {detail}", flush=True)
    if not condition:
        failures.append(name)


gateway = Gateway(sys.argv[1])

status, _, _ = gateway.request("/")
check("no cookie is 401", status == 401, status)
status, _, _ = gateway.request("/app.js")
check("no cookie is 401 for a file too", status == 401, status)

status, headers = gateway.sign_in()
check("the token signs in with a redirect", status == 303 and headers.get("location") == "/", status)
cookie = headers.get("set-cookie", "")
check("the cookie is HttpOnly and SameSite=Strict", "HttpOnly" in cookie and "SameSite=Strict" in cookie, cookie)
status, _ = Gateway(sys.argv[1]).sign_in()
check("the token works once", status == 401, status)

status, headers, body = gateway.request("/", {"Cookie": gateway.cookie})
check("the cookie opens the page", status == 200 and b"data-action=\"add\"" in body, status)
csp = headers.get("content-security-policy", "")
check("CSP default-src 'self'", "default-src 'self'" in csp, csp)
check("no inline script in the page", b"<script>" not in body and b"<script type=\"module\" src=" in body)
status, _, _ = gateway.request("/", {"Cookie": "sync_session_1=forged"})
check("a forged cookie is 401", status == 401, status)
status, _, _ = gateway.request("/", {"Cookie": gateway.cookie, "Host": "attacker.example:80"})
check("a wrong Host is refused", status == 421, status)

for name, kwargs in [("a foreign Origin", {"origin": "http://attacker.example"}),
                     ("no cookie", {"cookie": ""}),
                     ("a wrong Host", {"host": "attacker.example"})]:
    try:
        gateway.open_socket(**kwargs).close()
        check(f"an upgrade with {name} is refused", False, "it was upgraded")
    except HandshakeRefused as refusal:
        check(f"an upgrade with {name} is refused", True, refusal.status_line)
    except (ConnectionError, EOFError) as error:
        check(f"an upgrade with {name} is refused", True, repr(error))

socket = gateway.open_socket()
hello = socket.receive()
check("the page's upgrade is served", hello["type"] == "hello" and hello["app"] == "todo", hello)
socket.send({"type": "dispatch", "id": 1, "action": "clearCompleted", "payload": {}})
answer = socket.receive_until(lambda m: m.get("id") == 1)
check("an action not on the allowlist is refused", answer.get("code") == "unknown_action", answer)
socket.send({"type": "dispatch", "id": 2, "action": "import", "payload": {"items": []}})
answer = socket.receive_until(lambda m: m.get("id") == 2)
check("import is not on the allowlist", answer.get("code") == "unknown_action", answer)
socket.send({"type": "subscribe", "key": "x", "viewModel": "export", "params": {}})
answer = socket.receive_until(lambda m: m.get("type") == "error")
check("a view model not on the allowlist is refused", answer.get("code") == "unknown_view_model", answer)
socket.send({"type": "dispatch", "id": 3, "action": "complete", "payload": {"number": "one"}})
answer = socket.receive_until(lambda m: m.get("id") == 3)
check("a payload of the wrong shape is refused", answer.get("code") == "invalid_payload", answer)
socket.send({"type": "dispatch", "id": 4, "action": "add", "payload": {"text": "x" * 70000}})
while socket.receive() is not None:
    pass
check("a message over the limit closes with 1009 and a reason",
      socket.close_code == 1009 and "65536" in (socket.close_reason or ""), (socket.close_code, socket.close_reason))

sys.exit(1 if failures else 0)
