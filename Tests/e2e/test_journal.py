"""issue 10, Logging: structured journal entries, tested against a fake journald.

navd runs in a private mount namespace (`unshare -m`, needs root) where /run/systemd
is a directory of this test holding journal/socket (the datagram socket
sd_journal_sendv writes to) and journal/stdout (what sd_journal_stream_fd probes).
"""

from __future__ import annotations

import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from navd_fixture import VarlinkConnection, navd_binary

UNSHARE = shutil.which("unshare")
READY_ID = "e2abb62b1f2e4d97b1b9d02e2662eacc"
CLOSED_ID = "983e16301691481c832c052521f41a54"
DROPPED_ID = "75230d61268748b9a980dc6a87178ae6"


def can_unshare() -> bool:
    if UNSHARE is None or os.geteuid() != 0:
        return False
    return subprocess.run([UNSHARE, "-m", "true"], capture_output=True).returncode == 0


pytestmark = pytest.mark.skipif(not can_unshare(), reason="needs root and unshare -m for a private /run/systemd")


def parse_entry(data: bytes) -> dict[str, str]:
    """journald's native protocol: KEY=value lines, or KEY\\n<le64 length><value>\\n."""
    fields: dict[str, str] = {}
    offset = 0
    while offset < len(data):
        newline = data.index(b"\n", offset)
        line = data[offset:newline]
        if b"=" in line:
            key, value = line.split(b"=", 1)
            offset = newline + 1
        else:
            key = line
            (length,) = struct.unpack("<Q", data[newline + 1:newline + 9])
            value = data[newline + 9:newline + 9 + length]
            offset = newline + 9 + length + 1
        fields[key.decode()] = value.decode(errors="replace")
    return fields


class FakeJournal:
    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="navd-journal-"))
        (self.root / "journal").mkdir()
        self.datagrams = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.datagrams.bind(str(self.root / "journal" / "socket"))
        self.stream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.stream.bind(str(self.root / "journal" / "stdout"))
        self.stream.listen(16)
        self.entries: list[dict[str, str]] = []

    def read(self, timeout: float) -> None:
        self.datagrams.settimeout(timeout)
        try:
            while True:
                self.entries.append(parse_entry(self.datagrams.recv(1 << 20)))
                self.datagrams.settimeout(0.05)
        except (socket.timeout, BlockingIOError):
            pass

    def wait_for(self, predicate, timeout: float = 10.0) -> dict[str, str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for entry in self.entries:
                if predicate(entry):
                    return entry
            self.read(0.1)
        raise AssertionError(
            f"no such journal entry among {len(self.entries)}; last: {[e.get('MESSAGE') for e in self.entries[-3:]]}")

    def close(self) -> None:
        self.datagrams.close()
        self.stream.close()
        shutil.rmtree(self.root, ignore_errors=True)


def start(journal: FakeJournal, workdir: str, *args: str) -> subprocess.Popen:
    socket_path = os.path.join(workdir, "navd.sock")
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "NAVD_SOCKET", "NAVD_DEBUG")}
    process = subprocess.Popen(
        [UNSHARE, "-m", "sh", "-c", f'mount --bind "{journal.root}" /run/systemd && exec "$@"', "sh",
         str(navd_binary()), "--socket", socket_path, *args],
        env=env, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 15
    while not os.path.exists(socket_path):
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline, "navd did not start"
        time.sleep(0.01)
    return process


@pytest.fixture
def journal():
    fake = FakeJournal()
    yield fake
    fake.close()


@pytest.fixture
def workdir():
    directory = tempfile.mkdtemp(prefix="navd-journal-run-")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def stop(process: subprocess.Popen) -> str:
    process.terminate()
    try:
        _, stderr = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        _, stderr = process.communicate(timeout=15)
    return stderr.decode(errors="replace")


def test_entries_are_structured_with_message_ids_and_client_fields(journal, workdir):
    """Logging: with journald present (the sd_journal_stream_fd probe succeeds) entries carry
    MESSAGE, PRIORITY, SYSLOG_IDENTIFIER, a MESSAGE_ID per kind and CLIENT_PID/CLIENT_UID;
    nothing is written to stderr."""
    process = start(journal, workdir, "--log-level", "debug")
    try:
        ready = journal.wait_for(lambda e: e.get("MESSAGE_ID") == READY_ID)
        assert ready["PRIORITY"] == "5" and ready["SYSLOG_IDENTIFIER"] == "navd"
        with VarlinkConnection(os.path.join(workdir, "navd.sock")) as client:
            client.call("io.navd.ListScenes")
        closed = journal.wait_for(lambda e: e.get("MESSAGE_ID") == CLOSED_ID)
        assert closed["CLIENT_PID"] == str(os.getpid())
        assert closed["CLIENT_UID"] == str(os.getuid())
        assert closed["MESSAGE"] == "connection closed: peer closed the connection"
        assert closed["PRIORITY"] == "7"
    finally:
        stderr = stop(process)
    assert stderr == "", stderr


def test_a_journal_that_does_not_read_never_blocks_navd_and_drops_are_counted(journal, workdir):
    """Logging: sd_journal_sendv blocks on a journal that does not read; navd logs from its own
    thread through a bounded queue, so it keeps serving; once the journal reads again, navd
    reports how many messages it dropped."""
    process = start(journal, workdir, "--log-level", "debug")
    try:
        path = os.path.join(workdir, "navd.sock")
        # The journal reads nothing now: 6,000 connections log 12,000 debug records, more
        # than the log queue holds (10,000) once the journal's socket queue is full.
        started = time.monotonic()
        for _ in range(6000):
            with VarlinkConnection(path) as client:
                client.call("io.navd.ListScenes")
        elapsed = time.monotonic() - started
        with VarlinkConnection(path) as client:
            assert client.call("io.navd.GetState", {"scene": "main"})["version"] == 0
        assert elapsed < 60, f"6,000 calls took {elapsed:.1f} s"
        dropped = journal.wait_for(lambda e: e.get("MESSAGE_ID") == DROPPED_ID, timeout=20)
        assert int(dropped["MESSAGE"].split("dropped ")[1].split()[0]) > 0
        assert dropped["PRIORITY"] == "4"
    finally:
        stop(process)
