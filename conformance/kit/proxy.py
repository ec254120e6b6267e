"""A frame-aware proxy between the client under test and the daemon: it records every frame
each way, and can drop the connection at a chosen frame (a lost ack), so that a client's
reconnect and resend are tested without timing luck."""

import json
import os
import socket
import struct
import threading

from .matching import mismatch


class Proxy:
    """Listens at `path`; each client connection gets its own connection to `upstream`."""

    def __init__(self, path: str, upstream: str):
        self.path = path
        self.upstream = upstream
        self.lock = threading.Lock()
        self.sent = []  # frames the client sent, as JSON (or the raw text)
        self.received = []  # frames the daemon sent the client
        self.connections = 0
        self.drop_pattern = None
        self.drops = 0
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(16)
        self.pairs = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def drop_on(self, pattern: dict) -> None:
        """Arms a drop: the next daemon frame matching `pattern` is not forwarded, and both
        sides of that connection are closed."""
        with self.lock:
            self.drop_pattern = pattern

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            daemon = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                daemon.connect(self.upstream)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.connections += 1
                self.pairs.append((client, daemon))
            threading.Thread(target=self._pump, args=(client, daemon, self.sent, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(daemon, client, self.received, True), daemon=True).start()

    def _pump(self, source, target, log, from_daemon: bool) -> None:
        buffer = b""
        try:
            while True:
                chunk = source.recv(1 << 20)
                if not chunk:
                    break
                buffer += chunk
                while len(buffer) >= 4:
                    (length,) = struct.unpack(">I", buffer[:4])
                    if len(buffer) < 4 + length:
                        break
                    frame, buffer = buffer[:4 + length], buffer[4 + length:]
                    message = _decoded(frame[4:])
                    if from_daemon and self._should_drop(message):
                        _close_both(source, target)
                        return
                    with self.lock:
                        log.append(message)
                    target.sendall(frame)
        except OSError:
            pass
        _half_close(target)

    def _should_drop(self, message) -> bool:
        with self.lock:
            if self.drop_pattern is None or mismatch(self.drop_pattern, message, {}) is not None:
                return False
            self.drop_pattern = None
            self.drops += 1
            return True

    def frames(self, direction: str) -> list:
        """A copy of the frames logged `sent` (client to daemon) or `received`."""
        with self.lock:
            return list(self.sent if direction == "sent" else self.received)

    def close(self) -> None:
        # A listener closed under a blocked accept does not wake it on Linux; a shutdown does.
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        with self.lock:
            pairs = list(self.pairs)
        for client, daemon in pairs:
            _close_both(client, daemon)
        try:
            os.unlink(self.path)
        except OSError:
            pass


def _decoded(payload: bytes):
    try:
        return json.loads(payload)
    except ValueError:
        return payload.decode(errors="replace")


def _half_close(sock) -> None:
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def _close_both(first, second) -> None:
    for sock in (first, second):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()
