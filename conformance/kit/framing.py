"""Frames on the wire: a 4-byte big-endian length, then that many bytes of JSON."""

import json
import socket
import struct
import time


class Closed(Exception):
    """The peer closed the connection."""


class FrameTimeout(Exception):
    """No whole frame arrived before the deadline."""


def encode(message: dict) -> bytes:
    """The frame of `message`, written compactly in the order its keys were given."""
    return frame(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode())


def frame(payload: bytes) -> bytes:
    """`payload` with its length prefix."""
    return struct.pack(">I", len(payload)) + payload


def padded(message: dict, size: int) -> bytes:
    """The payload of `message` grown to exactly `size` bytes by an ignored field `pad`."""
    base = json.dumps(dict(message, pad=""), separators=(",", ":")).encode()
    if len(base) > size:
        raise ValueError(f"a frame of {size} bytes cannot hold {message}")
    return json.dumps(dict(message, pad="x" * (size - len(base))), separators=(",", ":")).encode()


class FrameReader:
    """Reads whole frames from a socket, keeping what arrived beyond the last one."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buffer = b""

    def next_payload(self, deadline: float) -> bytes:
        """The next frame's payload; `Closed` at the end of the stream, `FrameTimeout` past
        `deadline` (a time.monotonic() value)."""
        while True:
            if len(self.buffer) >= 4:
                (length,) = struct.unpack(">I", self.buffer[:4])
                if len(self.buffer) >= 4 + length:
                    payload = self.buffer[4:4 + length]
                    self.buffer = self.buffer[4 + length:]
                    return payload
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise FrameTimeout()
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 20)
            except socket.timeout:
                raise FrameTimeout() from None
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                if self.buffer:
                    raise Closed(f"closed inside a frame ({len(self.buffer)} bytes of it arrived)")
                raise Closed("closed")
            self.buffer += chunk

    def next_message(self, deadline: float) -> dict:
        """The next frame, decoded as JSON."""
        payload = self.next_payload(deadline)
        try:
            return json.loads(payload)
        except ValueError as error:
            raise ValueError(f"the daemon sent a frame that is not JSON ({error}): {payload[:200]!r}") from None
