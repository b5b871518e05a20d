"""issue 28, restart edge cases (PROTOCOL.md "Stopping and restarting"): at a restart that keeps
clients, a connection that cannot be carried — one holding a half-sent frame, or calls pipelined
behind the ones answered — gets io.navd.ServerStopping with restarting: true and then EOF, never a
bare EOF or a reset; and a client that does not read cannot hold the stop or the restart past the
stop stall bound (250 ms), whatever StopTimeoutSec= is."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import tempfile
import threading
import time

import pytest

from navd_fixture import Navd, VarlinkConnection, encode_call
from systemd_harness import ActivatedNavd, NotifyListener, listening_socket

# 400 items with 200-byte titles: each GetState reply is ~100 KB, so a few of them fill the
# socket and navd's output past its low-water mark, and the calls behind them wait undispatched.
BIG_SCENE = [
    [{"op": "defineBarButtonItem", "barButtonItem": {"id": f"b{n}", "title": "t" * 200}}
     for n in range(start, start + 200)]
    for start in (0, 200)
]
PIPELINED = 40


class RawReader:
    """Reads one connection to its end in a thread, slowly until `hurry` is set (so navd sees
    its output move, yet keeps some waiting), then at full speed; records whether it ended in
    EOF or a reset."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.data = bytearray()
        self.ending = ""
        self.hurry = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        self.sock.settimeout(20)
        try:
            while True:
                chunk = self.sock.recv(1 << 20 if self.hurry.is_set() else 4096)
                if not chunk:
                    self.ending = "EOF"
                    return
                self.data += chunk
                if not self.hurry.is_set():
                    time.sleep(0.005)
        except ConnectionResetError:
            self.ending = "reset"
        except socket.timeout:
            self.ending = "timeout"

    def frames(self) -> list[dict]:
        self.thread.join(25)
        assert self.data.endswith(b"\0"), f"{len(self.data)} bytes, the last message incomplete"
        return [json.loads(frame) for frame in bytes(self.data[:-1]).split(b"\0")]


def stopping(frame: dict, restarting: bool) -> bool:
    return frame.get("error") == "io.navd.ServerStopping" and frame["parameters"]["restarting"] is restarting


@pytest.fixture
def notify():
    listener = NotifyListener()
    yield listener
    listener.close()


@pytest.fixture
def activated(notify):
    """A navd started with a listening socket and a (fake) fd store, as systemd does."""
    workdir = tempfile.mkdtemp(prefix="navd-restart-edges-")
    path = os.path.join(workdir, "navd.sock")
    listener = listening_socket(path)
    navd = ActivatedNavd([listener.fileno()], ["navd"], args=["--stop-timeout", "30"],
                         env={"NOTIFY_SOCKET": notify.path})
    try:
        navd.wait_listening()
        notify.wait_for("READY", "1")
        yield navd, path
    finally:
        navd.stop()
        listener.close()
        shutil.rmtree(navd.directory, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)


def test_a_half_sent_frame_and_an_unread_pipeline_get_server_stopping_then_eof(activated):
    navd, path = activated
    with VarlinkConnection(path) as writer:
        for ops in BIG_SCENE:
            writer.call("io.navd.Mutate", {"scene": "main", "ops": ops})
        half = VarlinkConnection(path)
        half.send_raw(b'{"method":"io.navd.GetState","parameters":{"scene":"ma')
        pipe = VarlinkConnection(path)
        pipe.send_raw(b"".join(encode_call("io.navd.GetState", {"scene": "main"}) for _ in range(PIPELINED)))
        reader = RawReader(pipe.sock)
        time.sleep(0.5)  # navd has answered what fits and holds the rest of the pipeline
        navd.process.send_signal(signal.SIGUSR2)
        reader.hurry.set()
        assert navd.process.wait(15) == 75, navd.log()

        frames = reader.frames()
        assert reader.ending == "EOF", reader.ending
        assert all("parameters" in f and "version" in f["parameters"] for f in frames[:-1]), frames[-1]
        assert 0 < len(frames) - 1 < PIPELINED, "some calls were answered, the rest not started"
        assert stopping(frames[-1], restarting=True), frames[-1]

        half_reader = RawReader(half.sock)
        half_reader.hurry.set()
        assert [stopping(f, restarting=True) for f in half_reader.frames()] == [True]
        assert half_reader.ending == "EOF", half_reader.ending
        half.close()
        pipe.close()


def test_a_client_that_does_not_read_cannot_hold_a_restart(activated):
    navd, path = activated
    with VarlinkConnection(path) as writer:
        for ops in BIG_SCENE:
            writer.call("io.navd.Mutate", {"scene": "main", "ops": ops})
        idle = VarlinkConnection(path)
        stuck = VarlinkConnection(path)
        stuck.send_raw(b"".join(encode_call("io.navd.GetState", {"scene": "main"}) for _ in range(PIPELINED)))
        time.sleep(0.5)  # its replies fill the socket and navd's output; it never reads them
        started = time.monotonic()
        navd.process.send_signal(signal.SIGUSR2)
        assert navd.process.wait(15) == 75, navd.log()
        pause = time.monotonic() - started
        # StopTimeoutSec= is 30 s here; the stop stall bound (250 ms) ends the stuck client.
        assert pause < 5, f"the restart took {pause:.1f} s"
        assert "connection closed: client not reading" in navd.log(), navd.log()
        assert "handing over carried=2" in navd.log(), "the writer and the idle client are carried"
        idle.close()
        stuck.close()


def test_a_client_that_does_not_read_cannot_hold_a_stop():
    with Navd(name="stuck-stop", args=["--stop-timeout", "30"]) as navd:
        with navd.connect() as writer:
            for ops in BIG_SCENE:
                writer.call("io.navd.Mutate", {"scene": "main", "ops": ops})
        stuck = navd.connect()
        stuck.send_raw(b"".join(encode_call("io.navd.GetState", {"scene": "main"}) for _ in range(PIPELINED)))
        time.sleep(0.5)
        started = time.monotonic()
        os.kill(navd.pid, signal.SIGTERM)
        assert navd.process.wait(15) == 0, navd.log()
        assert time.monotonic() - started < 5
        stuck.close()


def big_call(size: int) -> bytes:
    """A GetState call padded with a vendor key to about `size` bytes (§2: dotted keys are ignored)."""
    return encode_call("io.navd.GetState", {"scene": "main"}, **{"x.pad": "p" * size})


@pytest.mark.parametrize("state, data", [
    ("a call cut in its first bytes", b'{"met'),
    ("half of a 200 KB call (read beside the event loop once whole)", big_call(200_000)[:100_000]),
    ("a whole call answered, then one cut", encode_call("io.navd.ListScenes", {}) + b'{"method":"io.navd.List'),
])
def test_server_stopping_reaches_a_connection_whatever_its_input(activated, state, data):
    """PROTOCOL.md "Stopping and restarting": a connection that cannot be carried, whatever state
    its input is in, gets its answers, then io.navd.ServerStopping with restarting: true, then EOF
    (never a bare EOF or a reset). (A client that ends its side after a cut call is not among
    them: navd closes such a connection at once, restart or not, as nothing more can arrive.)"""
    navd, path = activated
    with VarlinkConnection(path) as client:
        client.send_raw(data)
        if data.startswith(encode_call("io.navd.ListScenes", {})):
            assert "scenes" in client.recv()["parameters"]  # answered before the restart
        else:
            with VarlinkConnection(path) as marker:  # navd has read the input: it serves in order
                assert marker.call("io.navd.ListScenes")["scenes"]
        navd.process.send_signal(signal.SIGUSR2)
        assert navd.process.wait(15) == 75, navd.log()
        reader = RawReader(client.sock)
        reader.hurry.set()
        frames = reader.frames()
        assert reader.ending == "EOF", (state, reader.ending)
        assert [stopping(f, restarting=True) for f in frames] == [True], (state, frames)
