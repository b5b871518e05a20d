"""A stand-in for systemd as PID 1, for the tests of issue 10 (SYSTEMD-NOTES.md,
"Testing without PID 1").

- `NotifyListener`: a test-owned NOTIFY_SOCKET (AF_UNIX datagrams, SO_PASSCRED on)
  that records every message navd sends (READY=1, STATUS=, WATCHDOG=1, RELOADING=1,
  STOPPING=1, FDSTORE=1 with the descriptors passed by SCM_RIGHTS), each with the
  time it arrived.
- `listening_socket`: a bound, listening Unix socket the test owns, to pass as fd 3.
- `start_activated`: starts navd with that socket on fd 3 and LISTEN_FDS /
  LISTEN_FDNAMES set, via `sh -c 'LISTEN_PID=$$ exec "$@"'` (the pid is only known
  after fork), exactly as systemd does.
"""

from __future__ import annotations

import array
import os
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from navd_fixture import navd_binary


@dataclass
class Notification:
    """One datagram: its assignments, when it arrived, and any descriptors it carried."""
    fields: dict[str, str]
    at: float
    fds: list[int] = field(default_factory=list)
    raw: str = ""


class NotifyListener:
    """Receives sd_notify datagrams on a socket in a temporary directory."""

    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="navd-notify-")
        self.path = os.path.join(self.directory, "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.sock.bind(self.path)
        self.sock.settimeout(0.1)
        self.messages: list[Notification] = []
        self.lock = threading.Lock()
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        fd_size = array.array("i").itemsize
        while self.running:
            try:
                data, ancillary, _, _ = self.sock.recvmsg(65536, socket.CMSG_SPACE(64 * fd_size) + 256)
            except socket.timeout:
                continue
            except OSError:
                return
            fds: list[int] = []
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    received = array.array("i")
                    received.frombytes(payload[: len(payload) - len(payload) % fd_size])
                    fds.extend(received)
            text = data.decode(errors="replace")
            fields = {}
            for line in text.split("\n"):
                if "=" in line:
                    key, value = line.split("=", 1)
                    fields[key] = value
            with self.lock:
                self.messages.append(Notification(fields, time.monotonic(), fds, text))

    def snapshot(self) -> list[Notification]:
        with self.lock:
            return list(self.messages)

    def wait_for(self, key: str, value: str | None = None, timeout: float = 10.0, after: int = 0) -> int:
        """Index of the first message at or after `after` that sets `key` (to `value`);
        raises AssertionError after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            for index, message in enumerate(self.snapshot()[after:], start=after):
                if key in message.fields and (value is None or message.fields[key] == value):
                    return index
            if time.monotonic() >= deadline:
                raise AssertionError(
                    f"no {key}={value or '*'} within {timeout} s; got {[m.raw for m in self.snapshot()]}")
            time.sleep(0.01)

    def close(self) -> None:
        self.running = False
        self.thread.join(2)
        self.sock.close()
        for message in self.messages:
            for fd in message.fds:
                try:
                    os.close(fd)
                except OSError:
                    pass
        try:
            os.unlink(self.path)
            os.rmdir(self.directory)
        except OSError:
            pass


def listening_socket(path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(64)
    return sock


class ActivatedNavd:
    """navd started as systemd would: passed descriptors on fds 3.., LISTEN_* set."""

    def __init__(self, fds: list[int], names: list[str], args: list[str] = (), env: dict | None = None,
                 directory: str | None = None) -> None:
        self.directory = directory or tempfile.mkdtemp(prefix="navd-activated-")
        self.stdout_path = Path(self.directory) / "stdout.log"
        self.stderr_path = Path(self.directory) / "stderr.log"
        process_env = dict(os.environ)
        for name in ("NAVD_SOCKET", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_PID"):
            process_env.pop(name, None)
        process_env.update({
            "LISTEN_FDS": str(len(fds)), "LISTEN_FDNAMES": ":".join(names), "XDG_RUNTIME_DIR": self.directory,
            "XDG_STATE_HOME": self.directory,  # the default state directory: $XDG_STATE_HOME/navd
        })
        process_env.update(env or {})

        def place_fds() -> None:
            # Move the passed descriptors to 3, 4, … (dup first to high numbers to avoid clashes).
            high = [os.dup(fd) for fd in fds]
            moved = []
            for index, fd in enumerate(high):
                os.dup2(fd, 3 + index)
                moved.append(3 + index)
            for fd in high:
                if fd not in moved:
                    os.close(fd)

        with open(self.stdout_path, "wb") as stdout, open(self.stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(
                ["sh", "-c", 'LISTEN_PID=$$ exec "$@"', "sh", str(navd_binary()), *args],
                env=process_env, cwd=self.directory, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                preexec_fn=place_fds, close_fds=False)

    def log(self) -> str:
        return self.stderr_path.read_text(errors="replace") + self.stdout_path.read_text(errors="replace")

    def wait_listening(self, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if "navd: listening on" in self.stdout_path.read_text(errors="replace"):
                return
            if self.process.poll() is not None:
                raise AssertionError(f"navd exited with {self.process.returncode}: {self.log()}")
            time.sleep(0.01)
        raise AssertionError(f"navd did not start: {self.log()}")

    def stop(self, timeout: float = 10.0) -> int:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        return self.process.returncode
