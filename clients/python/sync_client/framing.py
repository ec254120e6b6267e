"""Frames: a 4-byte big-endian length, then that many bytes of UTF-8 JSON (one object)."""

from __future__ import annotations

import json
import socket
import struct

from .errors import ConnectionClosed, ProtocolViolation

#: The largest frame this client reads from the daemon (PROTOCOL.md asks for at least 256 MiB).
MAX_FRAME = 256 * 1024 * 1024


def encode(message: dict) -> bytes:
    """The frame of `message`."""
    payload = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
    return struct.pack(">I", len(payload)) + payload


class FrameReader:
    """Reads whole messages from a socket."""

    def __init__(self, sock: socket.socket):
        self._sock = sock
        self._buffer = bytearray()

    def read(self) -> dict:
        """The next message; `ConnectionClosed` at the end of the stream."""
        while True:
            if len(self._buffer) >= 4:
                (length,) = struct.unpack(">I", self._buffer[:4])
                if length == 0 or length > MAX_FRAME:
                    raise ProtocolViolation(f"the daemon sent a frame of {length} bytes")
                if len(self._buffer) >= 4 + length:
                    payload = bytes(self._buffer[4:4 + length])
                    del self._buffer[:4 + length]
                    return _decode(payload)
            try:
                chunk = self._sock.recv(1 << 20)
            except OSError as error:
                raise ConnectionClosed(f"the connection failed: {error}") from None
            if not chunk:
                raise ConnectionClosed("the daemon closed the connection")
            self._buffer += chunk


def _decode(payload: bytes) -> dict:
    try:
        message = json.loads(payload.decode("utf-8"))
    except ValueError as error:
        raise ProtocolViolation(f"the daemon sent a frame that is not JSON: {error}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolViolation(f"the daemon sent a frame that is not a message: {payload[:200]!r}")
    return message
