"""The daemon under test: started for one case on a private socket and data directory, stopped
by its process id."""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time


class DaemonError(Exception):
    """The daemon did not start, or did not stop as asked."""


class Daemon:
    """One daemon process in a private directory (mode 0700) that `stop` removes."""

    def __init__(self, binary: str, arguments: list, start_timeout: float = 30):
        self.directory = tempfile.mkdtemp(prefix="conf.", dir="/tmp")
        self.socket_path = os.path.join(self.directory, "d.sock")
        self.log_path = os.path.join(self.directory, "daemon.log")
        command = [binary, "--socket", self.socket_path, "--data-dir", os.path.join(self.directory, "data")]
        with open(self.log_path, "wb") as log:
            try:
                self.process = subprocess.Popen(
                    command + arguments, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
            except OSError as error:
                shutil.rmtree(self.directory, ignore_errors=True)
                raise DaemonError(f"cannot start {binary}: {error}") from None
        deadline = time.monotonic() + start_timeout
        while not self._answers():
            if self.process.poll() is not None:
                log = self.log()
                self.stop()
                raise DaemonError(f"{binary} exited at start with {self.process.returncode}:\n{log}")
            if time.monotonic() > deadline:
                self.stop()
                raise DaemonError(f"{binary} did not listen on {self.socket_path} within {start_timeout} s")
            time.sleep(0.01)

    def _answers(self) -> bool:
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(self.socket_path)
            return True
        except OSError:
            return False
        finally:
            probe.close()

    def log(self) -> str:
        """What the daemon wrote so far."""
        try:
            with open(self.log_path, errors="replace") as log:
                return log.read()
        except OSError:
            return ""

    def signal(self, number: int) -> None:
        """Sends `number` to the daemon's process (only while it runs)."""
        if self.process.poll() is None:
            os.kill(self.process.pid, number)

    def wait(self, timeout: float) -> int:
        """The daemon's exit code, once it exits (DaemonError past `timeout` seconds)."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise DaemonError(f"the daemon did not exit within {timeout} s") from None

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not exit; removes the private directory."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)
