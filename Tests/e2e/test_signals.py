"""issue 27 item 3: every signal navd(8) SIGNALS lists, sent to a real navd, does what the
page says: SIGTERM/SIGINT stop gracefully (streams end with ServerStopping, exit 0), a
second SIGTERM stops at once (exit 0), SIGHUP reloads, SIGUSR1 logs the status, SIGUSR2
without a service manager is ignored with a warning, the ignored signals change nothing,
and SIGQUIT and the crash signals end navd by that signal (its default action: a core
dump, which the test's RLIMIT_CORE 0 suppresses) instead of hanging in the Swift
runtime's backtracer."""

from __future__ import annotations

import resource
import signal
import socket
import subprocess
import threading
import time

import pytest

from navd_fixture import Navd, VarlinkConnection, encode_call, unwrap

PUSH_ROOT = [{"op": "push", "item": {"id": "root", "title": "Root"}}]


@pytest.fixture
def no_core_files():
    """RLIMIT_CORE 0 for the navd the test starts (inherited): the default action of
    SIGQUIT dumps core, which the test does not want on disk."""
    previous = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (0, previous[1]))
    yield
    resource.setrlimit(resource.RLIMIT_CORE, previous)


def wait_exit(navd: Navd, timeout: float) -> int | None:
    assert navd.process is not None
    try:
        return navd.process.wait(timeout)
    except subprocess.TimeoutExpired:
        return None


@pytest.mark.parametrize("name", ["SIGQUIT", "SIGSEGV", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL", "SIGTRAP"])
def test_quit_and_crash_signals_end_navd_by_that_signal(name, no_core_files):
    """SIGQUIT keeps its default action (core + exit by the signal): it used to hang navd
    (no answers, SIGTERM ignored), as did every crash signal, in the Swift runtime's
    backtracer. navd must die by the signal itself, promptly, with a client connected."""
    navd = Navd(name=name.lower()).start()
    try:
        with navd.connect() as client:
            client.call("io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})
            navd.process.send_signal(getattr(signal, name))
            status = wait_exit(navd, 20)
            assert status == -getattr(signal, name), f"{name}: navd did not die by it (status {status})"
            assert client.is_closed_by_peer(timeout=10)
    finally:
        if navd.alive():
            navd.process.kill()
            navd.process.wait(10)
        navd.cleanup()


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_term_and_int_stop_gracefully(name):
    """SIGTERM and SIGINT: the subscriber gets its final io.navd.ServerStopping with
    restarting false, the connection closes, and navd exits 0."""
    with Navd(name=name.lower()) as navd, navd.connect() as writer, navd.connect() as subscriber:
        writer.call("io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})
        subscriber.send("io.navd.Subscribe", {"scene": "main", "view": "state"}, more=True)
        assert unwrap(subscriber.recv())["kind"] == "snapshot"
        navd.process.send_signal(getattr(signal, name))
        final = subscriber.recv()
        assert final["error"] == "io.navd.ServerStopping"
        assert final["parameters"]["restarting"] is False
        assert subscriber.is_closed_by_peer()
        assert wait_exit(navd, 30) == 0
        assert navd.wait_for_log(rf"stopping on {name}")


def test_second_sigterm_stops_at_once_with_status_0():
    """A second SIGTERM does not wait out --stop-timeout for a peer that reads slowly (one
    that does not read at all is closed after the stop stall bound, test_restart_edges.py):
    navd stops at once and still exits 0 (what was acknowledged is stored either way)."""
    with Navd(name="twice", args=["--stop-timeout", "120"]) as navd:
        with navd.connect() as writer:
            writer.call("io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})
            # A snapshot of about 1.6 MB (400 bar button items with 16 long possible titles
            # each): more than the socket's buffers, so output stays queued for the
            # subscriber that reads it slowly.
            for first in (0, 200):
                writer.call("io.navd.Mutate", {"scene": "main", "ops": [
                    {"op": "defineBarButtonItem", "barButtonItem": {
                        "id": f"b{k}", "possibleTitles": [f"{k}-{t}-" + "x" * 240 for t in range(16)]}}
                    for k in range(first, first + 200)]})
            stalled = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            stalled.connect(navd.socket_path)
            stalled.sendall(encode_call("io.navd.Subscribe", {"scene": "main", "view": "state"}, more=True))
            writer.call("io.navd.GetState", {"scene": "main"})
        done = threading.Event()

        def trickle() -> None:
            # 16 KiB every 10 ms: the socket keeps taking navd's writes (it takes more once
            # three quarters of what it holds are read), so navd never closes it as not
            # reading, yet the snapshot takes about a second to drain.
            stalled.settimeout(5)
            try:
                while not done.is_set() and stalled.recv(16384):
                    time.sleep(0.01)
            except OSError:
                pass

        reader = threading.Thread(target=trickle, daemon=True)
        reader.start()
        navd.process.send_signal(signal.SIGTERM)
        assert navd.wait_for_log(r"stopping on SIGTERM")
        assert wait_exit(navd, 0.3) is None, navd.log()
        navd.process.send_signal(signal.SIGTERM)
        assert wait_exit(navd, 20) == 0
        assert navd.wait_for_log(r"SIGTERM again: stopping now")
        done.set()
        reader.join(10)
        stalled.close()


def test_hup_usr1_usr2_and_ignored_signals_keep_serving():
    """SIGHUP reloads, SIGUSR1 logs the status, SIGUSR2 with no service manager is
    ignored with a warning, and every signal navd(8) lists as ignored leaves the same
    connection served."""
    ignored = ["SIGPIPE", "SIGXFSZ", "SIGALRM", "SIGVTALRM", "SIGPROF", "SIGIO", "SIGPWR", "SIGSTKFLT"]
    with Navd(name="keep") as navd, navd.connect() as client:
        client.call("io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})
        navd.process.send_signal(signal.SIGHUP)
        assert navd.wait_for_log(r"configuration reloaded")
        navd.process.send_signal(signal.SIGUSR1)
        assert navd.wait_for_log(r"notice: serving: 1 scene, 1 client")
        navd.process.send_signal(signal.SIGUSR2)
        assert navd.wait_for_log(r"SIGUSR2 asks for a restart that keeps clients.*ignored")
        for name in ignored:
            navd.process.send_signal(getattr(signal, name))
        time.sleep(0.2)
        assert navd.alive()
        assert client.call("io.navd.GetState", {"scene": "main"})["version"] == 1
        with navd.connect() as another:
            assert another.call("io.navd.GetState", {"scene": "main"})["version"] == 1
