"""issue 10: navd as a systemd service, tested without systemd as PID 1
(SYSTEMD-NOTES.md): socket activation, sd_notify readiness/status/watchdog,
reload and graceful stop on signals, signals that must not kill navd, and the
configuration file. Every navd is started here and stopped by its pid."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from navd_fixture import Navd, VarlinkConnection, encode_call, navd_binary, unwrap
from systemd_harness import ActivatedNavd, NotifyListener, listening_socket

PUSH_ROOT = [{"op": "push", "item": {"id": "root", "title": "Root"}}]


def title(text: str) -> list[dict]:
    return [{"op": "updateNavigationItem", "item": "root", "set": {"title": text}}]


@pytest.fixture
def notify():
    listener = NotifyListener()
    yield listener
    listener.close()


@pytest.fixture
def workdir():
    directory = tempfile.mkdtemp(prefix="navd-systemd-")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def test_socket_activation_serves_a_client_that_connected_before_navd_started(workdir, notify):
    """Socket activation: navd serves the passed fd 3 (LISTEN_FDNAMES=navd), never binds its
    own, and answers a call sent before it was even started."""
    path = os.path.join(workdir, "navd.sock")
    listener = listening_socket(path)
    early = VarlinkConnection(path)
    early.send("io.navd.GetServerInfo", {})
    navd = ActivatedNavd([listener.fileno()], ["navd"], env={"NOTIFY_SOCKET": notify.path})
    listener.close()
    try:
        reply = unwrap(early.recv(timeout=15))
        assert reply["pid"] == navd.process.pid, "LISTEN_PID named navd itself (exec kept the pid)"
        navd.wait_listening()
        assert f'listening on unix:{path} (passed by the service manager: fd 3, named "navd")' in navd.log()
        assert sorted(os.listdir(workdir)) == ["navd.sock"], "navd bound nothing of its own"
        with VarlinkConnection(path) as later:
            assert later.call("io.navd.ListScenes")["scenes"][0]["name"] == "main"
        notify.wait_for("READY", "1")
    finally:
        early.close()
        assert navd.stop() == 0
        shutil.rmtree(navd.directory, ignore_errors=True)
    assert os.path.exists(path), "a passed socket's file belongs to the socket unit, not to navd"


def test_socket_activation_with_systemd_socket_activate(workdir):
    """Socket activation through systemd's own tool: it waits for the first connection,
    then execs navd with fd 3 listening; the first connection is served."""
    tool = shutil.which("systemd-socket-activate")
    if tool is None:
        pytest.skip("systemd-socket-activate is not installed (scripts/setup installs systemd)")
    path = os.path.join(workdir, "navd.sock")
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "NAVD_SOCKET")}
    env["XDG_RUNTIME_DIR"] = workdir
    process = subprocess.Popen(
        [tool, "-l", path, "--fdname=navd", str(navd_binary())], env=env, cwd=workdir,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # The socket file appears at bind(), before the tool's listen(): until then a connect
        # is refused, so readiness is a connect that succeeds, not the file existing.
        deadline = time.monotonic() + 10
        first = None
        while first is None:
            assert process.poll() is None, process.stderr.read().decode()
            try:
                first = VarlinkConnection(path, timeout=15)
            except (FileNotFoundError, ConnectionRefusedError):
                assert time.monotonic() < deadline, "systemd-socket-activate did not listen"
                time.sleep(0.01)
        with first:
            assert first.call("io.navd.GetServerInfo")["pid"] == process.pid
    finally:
        process.terminate()
        assert process.wait(10) == 0
        process.stderr.close()


def test_notify_ready_status_watchdog_reload_stop_in_order(workdir, notify):
    """Readiness: READY=1 once serving, with STATUS=; WATCHDOG=1 every half WATCHDOG_USEC
    from the event loop; SIGHUP: RELOADING=1 (with MONOTONIC_USEC) then READY=1, clients
    kept; SIGTERM: STOPPING=1, exit 0 — in that order."""
    path = os.path.join(workdir, "navd.sock")
    listener = listening_socket(path)
    navd = ActivatedNavd(
        [listener.fileno()], ["navd"],
        env={"NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "1000000"})
    listener.close()
    try:
        ready = notify.wait_for("READY", "1")
        assert notify.snapshot()[ready].fields["STATUS"].startswith("serving: 1 scene, ")
        with VarlinkConnection(path) as client:
            client.call("io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})
            status = notify.wait_for("STATUS", timeout=5, after=ready + 1)
            deadline = time.monotonic() + 5
            while "newest version 1 (main)" not in notify.snapshot()[status].fields.get("STATUS", ""):
                assert time.monotonic() < deadline, [m.raw for m in notify.snapshot()]
                status = notify.wait_for("STATUS", timeout=5, after=status + 1)
            # Watchdog: a 1 s interval, so a ping about every 500 ms. The interval is wide
            # enough that a loaded 2-core machine's scheduling jitter cannot reach it; what is
            # checked is the rate (half the interval) and that no gap reaches the interval.
            first_ping = notify.wait_for("WATCHDOG", "1")
            time.sleep(3.2)
            pings = [m.at for m in notify.snapshot()[first_ping:] if m.fields.get("WATCHDOG") == "1"]
            gaps = [b - a for a, b in zip(pings, pings[1:])]
            assert len(pings) >= 5, f"{len(pings)} pings in 3.2 s"
            assert max(gaps) < 1.0, f"a gap of {max(gaps):.3f} s would let the watchdog fire"
            assert 0.25 <= statistics.median(gaps) <= 0.75, gaps
            # Reload: RELOADING=1 … READY=1; the client stays connected.
            mark = len(notify.snapshot())
            navd.process.send_signal(signal.SIGHUP)
            reloading = notify.wait_for("RELOADING", "1", after=mark)
            assert int(notify.snapshot()[reloading].fields["MONOTONIC_USEC"]) > 0
            notify.wait_for("READY", "1", after=reloading + 1)
            assert client.call("io.navd.GetState", {"scene": "main"})["version"] == 1
        navd.process.send_signal(signal.SIGTERM)
        assert navd.process.wait(10) == 0
        stopping = notify.wait_for("STOPPING", "1", after=reloading + 1)
        assert stopping > reloading
    finally:
        navd.stop()
        shutil.rmtree(navd.directory, ignore_errors=True)


@pytest.mark.parametrize("name", ["SIGHUP", "SIGUSR1", "SIGUSR2", "SIGPIPE", "SIGALRM"])
def test_signals_that_used_to_kill_navd_are_handled(name):
    """Signals: SIGHUP reloads, SIGUSR1 logs the status, SIGUSR2/SIGPIPE/SIGALRM are
    ignored; navd keeps serving the same connection and its socket."""
    with Navd(name=name) as navd, navd.connect() as client:
        client.call("io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})
        os.kill(navd.pid, getattr(signal, name))
        if name == "SIGUSR1":
            assert navd.wait_for_log(r"notice: serving: 1 scene, 1 client, 0 subscribers; newest version 1")
        if name == "SIGHUP":
            assert navd.wait_for_log(r"configuration reloaded")
        assert client.call("io.navd.GetState", {"scene": "main"})["version"] == 1
        assert navd.alive()
        with navd.connect() as another:
            assert another.call("io.navd.GetState", {"scene": "main"})["version"] == 1


def test_graceful_stop_with_writers_and_subscribers():
    """Graceful stop: with writers pipelining mutations and subscribers streaming, SIGTERM
    loses no acknowledged mutation (every acked version reached every subscriber), and
    every stream ends with io.navd.ServerStopping, then EOF; navd exits 0."""
    navd = Navd(name="graceful").start()
    try:
        with navd.connect() as setup:
            setup.call("io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})
        subscribers = [navd.connect(timeout=15) for _ in range(3)]
        for index, subscriber in enumerate(subscribers):
            subscriber.send("io.navd.Subscribe", {"scene": "main", "view": "state" if index else "layout"}, more=True)
            assert unwrap(subscriber.recv())["kind"] == "snapshot"
        watcher = navd.connect(timeout=15)
        watcher.send("io.navd.WatchActions", {"scene": "main"}, more=True)
        acked: list[int] = []
        stop_writing = threading.Event()
        errors: list[str] = []

        def write(writer_index: int) -> None:
            connection = navd.connect(timeout=15)
            n = 0
            try:
                while not stop_writing.is_set():
                    batch = 8
                    data = b"".join(
                        encode_call("io.navd.Mutate", {"scene": "main", "ops": title(f"w{writer_index}-{n + i}")})
                        for i in range(batch))
                    connection.send_raw(data)
                    n += batch
                    for _ in range(batch):
                        reply = connection.recv()
                        if "error" in reply:
                            errors.append(json.dumps(reply))
                        else:
                            acked.append(reply["parameters"]["version"])
            except Exception:  # noqa: BLE001 — the stop closes the connection mid-batch
                pass
            finally:
                connection.close()

        writers = [threading.Thread(target=write, args=(i,)) for i in range(2)]
        for thread in writers:
            thread.start()
        deadline = time.monotonic() + 10
        while len(acked) < 200 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(acked) >= 200, "writers made progress before the stop"
        os.kill(navd.pid, signal.SIGTERM)
        for subscriber in subscribers + [watcher]:
            seen: set[int] = set()
            while True:
                reply = subscriber.recv(timeout=15)
                if "error" in reply:
                    final = reply
                    break
                body = reply["parameters"]
                if "toVersion" in body:
                    seen.update(range(body["fromVersion"] + 1, body["toVersion"] + 1))
            assert final["error"] == "io.navd.ServerStopping", final
            assert final["parameters"] == {"message": "navd is stopping", "restarting": False}
            assert subscriber.is_closed_by_peer(), "EOF after the final reply"
            if subscriber is not watcher:
                missing = set(acked) - seen
                assert not missing, f"acknowledged versions never delivered: {sorted(missing)[:10]}"
        stop_writing.set()
        for thread in writers:
            thread.join(15)
        assert not errors, errors[:3]
        assert navd.process.wait(15) == 0
        assert not os.path.exists(navd.socket_path)
    finally:
        navd.cleanup()


def test_configuration_file_drop_ins_and_command_line(workdir):
    """Configuration: --config FILE and FILE.d/*.conf (later files win), options override
    files; an invalid value is an error naming file, line and key (exit 1)."""
    config = Path(workdir) / "navd.conf"
    config.write_text("[Server]\nMaxConnections=1\n[Log]\nLevel=warning\n")
    (Path(workdir) / "navd.conf.d").mkdir()
    (Path(workdir) / "navd.conf.d" / "50-debug.conf").write_text("# drop-in\n[Log]\nLevel=debug\n")
    with Navd(args=["--config", str(config), "--max-connections", "2"], name="config") as navd:
        first, second, third = navd.connect(), navd.connect(), navd.connect()
        try:
            assert first.call("io.navd.ListScenes")
            assert second.call("io.navd.ListScenes"), "the option (2) overrides the file (1)"
            assert third.call_raw("io.navd.ListScenes")["error"] == "io.navd.LimitExceeded"
            assert navd.wait_for_log(r"debug: connection accepted"), "the drop-in's Level=debug won"
        finally:
            for connection in (first, second, third):
                connection.close()
    (Path(workdir) / "navd.conf.d" / "60-bad.conf").write_text("[Engine]\n\nMaxScenes=lots\n")
    result = subprocess.run([str(navd_binary()), "--config", str(config)], capture_output=True, text=True, timeout=15,
                            cwd=workdir)
    assert result.returncode == 1
    assert f"{workdir}/navd.conf.d/60-bad.conf:3: MaxScenes: needs an integer of at least 1, got \"lots\"" in result.stderr


def test_sighup_applies_a_new_log_level_and_reports_a_bad_file(workdir):
    """SIGHUP reloads [Log] Level without dropping clients; a bad file keeps the running
    configuration and says where it is wrong."""
    config = Path(workdir) / "navd.conf"
    config.write_text("[Log]\nLevel=info\n")
    with Navd(args=["--config", str(config)], name="reload") as navd, navd.connect() as client:
        config.write_text("[Log]\nLevel=debug\n[Engine]\nMaxScenes=5\n")
        os.kill(navd.pid, signal.SIGHUP)
        assert navd.wait_for_log(r"configuration reloaded")
        assert navd.wait_for_log(r"Engine MaxScenes= changed from \"1024\" to \"5\"; it takes effect when navd restarts")
        with navd.connect() as probe:
            probe.call("io.navd.ListScenes")
        assert navd.wait_for_log(r"debug: connection accepted")
        config.write_text("[Log]\nLevel=chatty\n")
        os.kill(navd.pid, signal.SIGHUP)
        assert navd.wait_for_log(r"reload failed, keeping the running configuration: .*navd.conf:2: Level: needs one of")
        assert client.call("io.navd.ListScenes")
