"""A small client of the web gateway for the tests: HTTP with the standard library, and a
WebSocket (RFC 6455) over a plain socket, enough to speak the page protocol of docs/WEB.md
from outside a browser."""

import base64
import http.client
import json
import os
import socket
import struct
import urllib.parse


#: What `_take_frame` gives for a frame that is not a message (a ping, answered, or a pong).
_CONTROL = object()


class Gateway:
    """The gateway at a printed URL: its address, and the session cookie once signed in."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.token = urllib.parse.parse_qs(parts.query)["token"][0]
        self.cookie = None

    def request(self, path, headers=None):
        """GET path; returns (status, headers dict, body bytes)."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        result = (response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        connection.close()
        return result

    def sign_in(self):
        """Exchanges the token for the cookie; returns the redirect's status and headers."""
        status, headers, _ = self.request(f"/?token={self.token}")
        if status == 303:
            self.cookie = headers["set-cookie"].split(";")[0]
        return status, headers

    def origin(self):
        return f"http://{self.host}:{self.port}"

    def open_socket(self, origin=None, cookie=None, host=None):
        """A WebSocket to the gateway; raises HandshakeRefused with the status if not upgraded."""
        return WebSocket(self.host, self.port, host or f"{self.host}:{self.port}", origin or self.origin(),
                         cookie if cookie is not None else self.cookie)


class HandshakeRefused(Exception):
    def __init__(self, status_line):
        super().__init__(status_line)
        self.status_line = status_line


class WebSocket:
    """One client WebSocket: text messages out (masked), messages and close frames in."""

    def __init__(self, address, port, host, origin, cookie):
        self.sock = socket.create_connection((address, port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET / HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if origin:
            lines.append(f"Origin: {origin}")
        if cookie:
            lines.append(f"Cookie: {cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = bytearray()
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise HandshakeRefused("connection closed during the handshake")
            self.buffer += chunk
        head, rest = self.buffer.split(b"\r\n\r\n", 1)
        self.buffer = bytearray(rest)
        status = head.split(b"\r\n")[0].decode()
        if " 101 " not in status:
            self.sock.close()
            raise HandshakeRefused(status)
        self.close_code = None
        self.close_reason = None

    def send(self, message):
        self.send_text(json.dumps(message).encode())

    def send_text(self, payload):
        header = bytes([0x81])
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the gateway closed the connection")
            self.buffer += chunk
        data = bytes(self.buffer[:count])
        del self.buffer[:count]
        return data

    def frame_ready(self):
        """Whether a whole frame is already buffered."""
        if len(self.buffer) < 2:
            return False
        length = self.buffer[1] & 0x7F
        offset = 2 + (2 if length == 126 else 8 if length == 127 else 0)
        if len(self.buffer) < offset:
            return False
        if length == 126:
            length = struct.unpack(">H", self.buffer[2:4])[0]
        elif length == 127:
            length = struct.unpack(">Q", self.buffer[2:10])[0]
        return len(self.buffer) >= offset + length

    def feed(self):
        """Reads what the socket has (it must be readable); False on EOF."""
        chunk = self.sock.recv(65536)
        if not chunk:
            return False
        self.buffer += chunk
        return True

    def receive(self):
        """The next message (a dict), waiting for it, or None once the gateway closed
        (close_code set)."""
        while True:
            message = self._take_frame()
            if message is not _CONTROL:
                return message

    def buffered_messages(self):
        """The messages whose frames are already buffered, in order, answering pings on the
        way; never waits for more (a ping followed by nothing must not hold the caller: the
        gateway pings a silent page every 15 s). A close frame gives None (close_code set)."""
        while self.frame_ready():
            message = self._take_frame()
            if message is not _CONTROL:
                yield message

    def _take_frame(self):
        """One frame, waiting for it: a message, None for a close, or _CONTROL for a ping
        (answered) or any other frame."""
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", self._read(8))[0]
        payload = self._read(length)
        opcode = first & 0x0F
        if opcode == 0x8:
            self.close_code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
            self.close_reason = payload[2:].decode(errors="replace")
            return None
        if opcode == 0x9:
            self._pong(payload)
        if opcode == 0x1:
            return json.loads(payload)
        return _CONTROL

    def _pong(self, payload):
        mask = os.urandom(4)
        self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask +
                          bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def receive_until(self, predicate):
        """Messages until one satisfies predicate; returns it."""
        while True:
            message = self.receive()
            if message is None:
                raise EOFError(f"closed ({self.close_code} {self.close_reason}) before the message awaited")
            if predicate(message):
                return message

    def close(self):
        self.sock.close()
