"""Starts a real navd for the end-to-end tests and talks to it over raw sockets.

Nothing here is navd-specific beyond the command line and the "listening"
line: the client is a small Varlink implementation written from
Protocol/PROTOCOL.md §2 (NUL-terminated JSON objects over a Unix socket).

- `Navd` starts `navd --socket PATH` in a fresh temporary directory (its
  working directory, XDG_RUNTIME_DIR and XDG_STATE_HOME, so nothing leaks into
  the repo or the user's state), waits
  for `navd: listening on unix:PATH` (bounded), keeps its stderr in a file so a
  test can assert on logged reasons, and stops it by its pid.
- `VarlinkConnection` sends calls and reads NUL-delimited replies, every read
  bounded by a timeout.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable

REPO_ROOT = Path(__file__).resolve().parents[2]
PROTOCOL_DIR = REPO_ROOT / "Protocol"

# Every socket operation and every wait in the suite is bounded by one of these. They are
# upper bounds on waiting for something that normally takes milliseconds, so they are
# generous: CI runs the suite on a loaded 2-core machine, where a debug navd can take
# seconds to start. A correct navd never makes a test wait for them.
DEFAULT_TIMEOUT = 30.0
START_TIMEOUT = 60.0
LOG_TIMEOUT = 30.0


def navd_binary() -> Path:
    """The navd under test: $NAVD_BIN, else .build/debug/navd in the repository."""
    configured = os.environ.get("NAVD_BIN")
    path = Path(configured) if configured else REPO_ROOT / ".build" / "debug" / "navd"
    if not path.is_absolute():
        path = REPO_ROOT / path
    return path


class NavdError(Exception):
    """navd did not start or misbehaved at the process level."""


class Navd:
    """One running navd process on a private socket and directory."""

    def __init__(self, args: Iterable[str] = (), env: dict[str, str] | None = None, name: str = "navd"):
        self.binary = navd_binary()
        if not self.binary.exists():
            raise NavdError(
                f"navd binary not found at {self.binary}; run `swift build --product navd` first "
                "(or set NAVD_BIN)"
            )
        self.directory = Path(tempfile.mkdtemp(prefix=f"navd-e2e-{name}-"))
        self.socket_path = str(self.directory / "navd.sock")
        self.address = f"unix:{self.socket_path}"
        self.stdout_path = self.directory / "stdout.log"
        self.stderr_path = self.directory / "stderr.log"
        self.args = list(args)
        process_env = dict(os.environ)
        process_env.pop("NAVD_SOCKET", None)
        # The state directory defaults to $XDG_STATE_HOME/navd, here inside the temporary
        # directory: never a shared one.
        process_env.pop("STATE_DIRECTORY", None)
        process_env["XDG_STATE_HOME"] = str(self.directory)
        process_env["XDG_RUNTIME_DIR"] = str(self.directory)
        if env:
            process_env.update(env)
        self.env = process_env
        self.process: subprocess.Popen | None = None

    # -- lifecycle ---------------------------------------------------------

    def start(self, timeout: float = START_TIMEOUT) -> "Navd":
        stdout = open(self.stdout_path, "wb")
        stderr = open(self.stderr_path, "wb")
        try:
            self.process = subprocess.Popen(
                [str(self.binary), "--socket", self.socket_path, *self.args],
                cwd=self.directory,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
            )
        finally:
            stdout.close()
            stderr.close()
        expected = f"navd: listening on unix:{self.socket_path}"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if expected in self.stdout_path.read_text(errors="replace"):
                return self
            if self.process.poll() is not None:
                raise NavdError(
                    f"navd exited with {self.process.returncode} before listening; stderr:\n{self.log()}"
                )
            time.sleep(0.01)
        self.stop()
        raise NavdError(f"navd did not print {expected!r} within {timeout} s; stderr:\n{self.log()}")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = DEFAULT_TIMEOUT) -> int | None:
        """SIGTERM by pid, SIGKILL if it does not exit in time. Returns the exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            try:
                os.kill(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout)
        return self.process.returncode

    def cleanup(self) -> None:
        self.stop()
        if os.environ.get("NAVD_KEEP_LOGS"):
            print(f"navd logs kept in {self.directory}", file=sys.stderr)
        else:
            shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> "Navd":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.cleanup()

    # -- observation -------------------------------------------------------

    def log(self) -> str:
        """Everything navd wrote to stderr so far."""
        try:
            return self.stderr_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_lines(self) -> list[str]:
        return self.log().splitlines()

    def wait_for_log(self, pattern: str, count: int = 1, timeout: float = LOG_TIMEOUT, after: int = 0) -> list[str]:
        """Waits (bounded) until `pattern` (a regex) matches at least `count` stderr lines
        after line index `after`; returns the matching lines (possibly fewer on timeout)."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            matches = [line for line in self.log_lines()[after:] if regex.search(line)]
            if len(matches) >= count or time.monotonic() >= deadline:
                return matches
            time.sleep(0.02)

    def rss_kib(self) -> int:
        """navd's resident set size (VmRSS) in KiB, from /proc."""
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise NavdError("no VmRSS in /proc status")

    def connect(self, timeout: float = DEFAULT_TIMEOUT) -> "VarlinkConnection":
        return VarlinkConnection(self.socket_path, timeout=timeout)


class ConnectionClosed(Exception):
    """The peer closed the connection (EOF) while a reply was expected."""


class ReplyTimeout(Exception):
    """No complete reply within the timeout."""


class VarlinkError(Exception):
    """An error reply: `name` and `parameters`."""

    def __init__(self, name: str, parameters: dict):
        super().__init__(f"{name} {json.dumps(parameters, sort_keys=True)}")
        self.name = name
        self.parameters = parameters


def encode_call(method: str, parameters: dict | None = None, **flags: Any) -> bytes:
    call: dict[str, Any] = {"method": method}
    if parameters is not None:
        call["parameters"] = parameters
    for key, value in flags.items():
        if value is not None:
            call[key] = value
    return json.dumps(call, separators=(",", ":")).encode() + b"\0"


class VarlinkConnection:
    """A raw Varlink client: one Unix stream socket, NUL-delimited JSON messages."""

    def __init__(self, path: str, timeout: float = DEFAULT_TIMEOUT):
        self.path = path
        self.timeout = timeout
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = bytearray()
        self.eof = False

    # -- sending -----------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, method: str, parameters: dict | None = None, **flags: Any) -> None:
        self.sock.sendall(encode_call(method, parameters, **flags))

    # -- receiving ---------------------------------------------------------

    def recv_frame(self, timeout: float | None = None) -> bytes:
        """The next NUL-terminated message (without the NUL), within `timeout` seconds."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            end = self.buffer.find(b"\0")
            if end >= 0:
                frame = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                return frame
            if self.eof:
                raise ConnectionClosed(f"EOF with {len(self.buffer)} bytes of partial message")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ReplyTimeout(f"no complete message within the timeout ({len(self.buffer)} bytes pending)")
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 20)
            except socket.timeout:
                raise ReplyTimeout(
                    f"no complete message within the timeout ({len(self.buffer)} bytes pending)"
                ) from None
            except ConnectionResetError:
                chunk = b""
            finally:
                self.sock.settimeout(self.timeout)
            if not chunk:
                self.eof = True
            else:
                self.buffer += chunk

    def recv(self, timeout: float | None = None) -> dict:
        """The next reply as a dict (error replies included, not raised)."""
        return json.loads(self.recv_frame(timeout))

    def frame_ready(self) -> bool:
        """Whether a complete message is already buffered or readable without waiting."""
        if b"\0" in self.buffer:
            return True
        try:
            self.sock.setblocking(False)
            try:
                chunk = self.sock.recv(1 << 20)
            except (BlockingIOError, InterruptedError):
                return False
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                self.eof = True
                return False
            self.buffer += chunk
            return b"\0" in self.buffer
        finally:
            self.sock.settimeout(self.timeout)

    def call(self, method: str, parameters: dict | None = None, timeout: float | None = None, **flags: Any) -> dict:
        """Sends a call and returns its reply's parameters; raises VarlinkError on an error reply."""
        self.send(method, parameters, **flags)
        return unwrap(self.recv(timeout))

    def call_raw(self, method: str, parameters: dict | None = None, timeout: float | None = None, **flags: Any) -> dict:
        """Sends a call and returns the whole reply message (errors included)."""
        self.send(method, parameters, **flags)
        return self.recv(timeout)

    def is_closed_by_peer(self, timeout: float = DEFAULT_TIMEOUT) -> bool:
        """Waits up to `timeout` for EOF; True if navd closed the connection.
        Any message that arrives first makes it False."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.recv_frame(timeout=max(0.01, deadline - time.monotonic()))
                return False
            except ConnectionClosed:
                return True
            except ReplyTimeout:
                return False
        return False

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self) -> "VarlinkConnection":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def unwrap(reply: dict) -> dict:
    if "error" in reply:
        raise VarlinkError(reply["error"], reply.get("parameters") or {})
    return reply.get("parameters") or {}


def protocol_file(name: str) -> Path:
    return PROTOCOL_DIR / name


def seed_from_env(default: int) -> int:
    """The seed of a randomised test: $NAVD_TEST_SEED, else `default`. Printed so a failure
    can be reproduced (pytest shows captured output on failure, or always with -s)."""
    value = os.environ.get("NAVD_TEST_SEED")
    seed = int(value) if value else default
    print(f"seed={seed} (set NAVD_TEST_SEED={seed} to reproduce)")
    return seed


def run_in_child(action, timeout: float = 30.0) -> tuple[int, Any]:
    """Runs `action()` in a forked child process and returns (child pid, its result).

    navd logs each connection with the peer's pid (SO_PEERCRED), so a bad client
    run in its own process can be told apart from every other connection in the
    log: that is how the tests check that a reason is logged exactly once. The
    child is bounded by `timeout` and killed by its pid if it overruns.
    """
    import pickle
    import select as select_module

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: no pytest machinery, just the action
        status = 0
        try:
            os.close(read_end)
            try:
                payload = pickle.dumps(("ok", action()))
            except BaseException as error:  # noqa: BLE001
                payload = pickle.dumps(("error", f"{type(error).__name__}: {error}"))
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
        except BaseException:  # noqa: BLE001
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    chunks = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                os.kill(pid, signal.SIGKILL)
                raise AssertionError(f"child {pid} did not finish within {timeout} s")
            ready, _, _ = select_module.select([read_end], [], [], remaining)
            if ready:
                chunk = os.read(read_end, 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)
    if not chunks:
        raise AssertionError(f"child {pid} produced no result")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "error":
        raise AssertionError(f"child {pid} failed: {value}")
    return pid, value


def raw_exchange(socket_path: str, data: bytes | list[bytes], *, read_timeout: float = 5.0,
                 pause: float = 0.0, replies_wanted: int | None = None) -> dict:
    """Connects, sends `data` (one buffer, or pieces with `pause` between them), then reads
    until EOF or `read_timeout` (or, with `replies_wanted`, until that many replies arrived and
    0.3 s passed without EOF: the connection stayed open). Returns {"replies": [...], "closed": bool, "send_error": str|None,
    "sent": bytes sent}. Used from `run_in_child`."""
    pieces = data if isinstance(data, list) else [data]
    connection = VarlinkConnection(socket_path, timeout=read_timeout)
    sent = 0
    send_error = None
    try:
        for piece in pieces:
            try:
                connection.send_raw(piece)
                sent += len(piece)
            except OSError as error:  # navd closed while we were still sending
                send_error = type(error).__name__
                break
            if pause:
                time.sleep(pause)
        replies = []
        closed = False
        deadline = time.monotonic() + read_timeout
        while time.monotonic() < deadline:
            if replies_wanted is not None and len(replies) >= replies_wanted:
                deadline = min(deadline, time.monotonic() + 0.3)
            try:
                replies.append(json.loads(connection.recv_frame(timeout=max(0.01, deadline - time.monotonic()))))
            except ConnectionClosed:
                closed = True
                break
            except ReplyTimeout:
                break
        return {"replies": replies, "closed": closed, "send_error": send_error, "sent": sent}
    finally:
        connection.close()
