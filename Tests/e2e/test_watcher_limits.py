"""issue 27 item 4: the per-uid output limit (--max-output-bytes-per-uid) covers every
queue a user's connections fill, WatchActions watchers' included. One unprivileged uid's
non-reading watchers used to escape it: their activations waited in the watchers' own
queues (up to --subscriber-queue-bytes each), which the limit did not count, so none was
closed. Now the watchers that do not read are closed (logged with outputBytesPerUser), a
watcher of the same uid that reads is spared, and navd's RSS settles back near its
baseline once they are gone."""

from __future__ import annotations

import os
import socket
import threading
import time

import pytest

from navd_fixture import Navd, encode_call

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="connects as another uid: run as root")

WATCHER_UID = 47041  # numeric uid with no passwd entry
WATCHERS = 100
ACTIVATIONS = 6000
LIMIT = 16 << 20


def watch_as(navd: Navd, uid: int, receive_buffer: int | None = None) -> socket.socket:
    os.setegid(uid)
    os.seteuid(uid)
    try:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if receive_buffer:
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        connection.connect(navd.socket_path)
    finally:
        os.seteuid(0)
        os.setegid(0)
    connection.sendall(encode_call("io.navd.WatchActions", {"scene": "main"}, more=True))
    return connection


def drained_to_eof(connection: socket.socket, timeout: float) -> bool:
    """Reads until EOF (True) or `timeout` passes with the connection still open (False)."""
    connection.settimeout(0.5)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if not connection.recv(1 << 20):
                return True
        except socket.timeout:
            return False
        except ConnectionResetError:
            return True
    return False


def test_non_reading_watchers_of_one_uid_hit_its_output_limit_and_rss_settles(tmp_path):
    policy = tmp_path / "policy.conf"
    policy.write_text(f"[Access]\nAllow=user:{WATCHER_UID} read scene:main\n")
    with Navd(args=["--policy", str(policy), "--max-output-bytes-per-uid", str(LIMIT)], name="watchers") as navd:
        os.chmod(navd.directory, 0o711)
        os.chmod(navd.socket_path, 0o666)
        with navd.connect() as root:
            root.call("io.navd.Mutate", {"scene": "main", "ops": [
                {"op": "defineBarButtonItem", "barButtonItem": {"id": "go", "title": "Go", "action": "a" * 250}},
                {"op": "push", "item": {"id": "root", "title": "R", "rightBarButtonItems": ["go"]}}]})
            baseline = navd.rss_kib()
            stalled = [watch_as(navd, WATCHER_UID, receive_buffer=4096) for _ in range(WATCHERS)]
            reader = watch_as(navd, WATCHER_UID)
            received = bytearray()
            reading = threading.Event()
            reading.set()

            def read() -> None:
                reader.settimeout(0.2)
                while reading.is_set():
                    try:
                        data = reader.recv(1 << 20)
                    except socket.timeout:
                        continue
                    if not data:
                        return
                    received.extend(data)

            thread = threading.Thread(target=read)
            thread.start()
            try:
                deadline = time.monotonic() + 30
                while root.call("io.navd.GetServerInfo")["subscribers"] < WATCHERS + 1:
                    assert time.monotonic() < deadline, "the watchers did not all register"
                    time.sleep(0.05)
                batch = 50
                peak = baseline
                for _ in range(ACTIVATIONS // batch):
                    root.send_raw(b"".join(
                        encode_call("io.navd.Activate", {"scene": "main", "item": "go"}) for _ in range(batch)))
                    for _ in range(batch):
                        assert "error" not in root.recv()
                    peak = max(peak, navd.rss_kib())
                closed_lines = navd.wait_for_log(rf"uid {WATCHER_UID} has more than {LIMIT} bytes.*outputBytesPerUser")
                assert closed_lines, "no watcher was closed over the per-uid output limit"
                closed = sum(drained_to_eof(connection, timeout=10) for connection in stalled)
                assert closed >= WATCHERS // 2, f"only {closed} of {WATCHERS} non-reading watchers were closed"
                # What the limit bounds: the uid's queues, not 100 watchers' full queues (100 MiB).
                assert peak - baseline < 2 * LIMIT // 1024, f"RSS grew {peak - baseline} KiB over the burst"
                reader_open = thread.is_alive()
            finally:
                reading.clear()
                thread.join(10)
            assert reader_open, "the watcher that reads was closed"
            assert received.count(b"\0") > ACTIVATIONS // 2, "the watcher that reads was not served"
            for connection in stalled:
                connection.close()
            reader.close()
            # Once the streams are gone and the loop idles, freed memory goes back (HeapTrimming).
            deadline = time.monotonic() + 15
            while navd.rss_kib() - baseline > 4096 and time.monotonic() < deadline:
                time.sleep(0.25)
            assert navd.rss_kib() - baseline <= 4096, f"RSS stayed {navd.rss_kib() - baseline} KiB above its baseline"
