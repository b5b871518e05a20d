"""issue 10, restart without dropping clients: on SIGUSR2 navd hands its listening socket
and its connections to the service manager's fd store (FDSTORE=1, FDNAME=), here a fake
store of the test (its NOTIFY_SOCKET receives the descriptors by SCM_RIGHTS); the test
then starts the next navd with them on fds 3.. and LISTEN_FDNAMES, as systemd does.
A subscriber connected before the restart keeps its connection and its stream."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile

import pytest

from navd_fixture import VarlinkConnection, unwrap
from systemd_harness import ActivatedNavd, NotifyListener, listening_socket

PUSH_ROOT = [{"op": "push", "item": {"id": "root", "title": "Root"}}]


def title(text: str) -> list[dict]:
    return [{"op": "updateNavigationItem", "item": "root", "set": {"title": text}}]


@pytest.fixture
def notify():
    listener = NotifyListener()
    yield listener
    listener.close()


def test_restart_hands_connections_to_the_next_navd(notify):
    workdir = tempfile.mkdtemp(prefix="navd-fdstore-")
    path = os.path.join(workdir, "navd.sock")
    listener = listening_socket(path)
    env = {"NOTIFY_SOCKET": notify.path}
    state = ["--state-dir", os.path.join(workdir, "state")]  # both navds share the durable state
    first = ActivatedNavd([listener.fileno()], ["navd"], args=state, env=env)
    second = None
    connections: list[VarlinkConnection] = []
    try:
        first.wait_listening()
        writer = VarlinkConnection(path)
        subscriber = VarlinkConnection(path)
        watcher = VarlinkConnection(path)
        connections += [writer, subscriber, watcher]
        assert writer.call("io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})["version"] == 1
        subscriber.send("io.navd.Subscribe", {"scene": "main", "view": "state"}, more=True)
        snapshot = unwrap(subscriber.recv())
        assert snapshot["kind"] == "snapshot" and snapshot["version"] == 1
        old_epoch = snapshot["epoch"]
        watcher.send("io.navd.WatchActions", {"scene": "main"}, more=True)
        for n in (2, 3):
            assert writer.call("io.navd.Mutate", {"scene": "main", "ops": title(f"T{n}")})["version"] == n
            assert unwrap(subscriber.recv())["toVersion"] == n

        ready = notify.wait_for("READY", "1")
        first.process.send_signal(signal.SIGUSR2)
        assert first.process.wait(15) == 75, first.log()
        stopping = notify.wait_for("STOPPING", "1", after=ready)
        stored = [m for m in notify.snapshot()[stopping:] if m.fields.get("FDSTORE") == "1"]
        names = [m.fields["FDNAME"] for m in stored]
        assert all(len(m.fds) == 1 for m in stored), "one descriptor per FDSTORE message"
        assert sorted(names) == ["navd-conn-1", "navd-conn-2", "navd-conn-3", "navd-listener", "navd-state"]

        # A client arriving during the pause queues in the listener's backlog.
        waiting = VarlinkConnection(path)
        connections.append(waiting)
        waiting.send("io.navd.ListScenes", {})

        mark = len(notify.snapshot())
        second = ActivatedNavd(
            [listener.fileno()] + [m.fds[0] for m in stored], ["navd"] + names, args=state, env=env)
        second.wait_listening()
        assert unwrap(waiting.recv(timeout=15))["scenes"]
        # The writer's connection was carried: it keeps working, and versions continue.
        assert writer.call("io.navd.Mutate", {"scene": "main", "ops": title("T4")})["version"] == 4
        # The subscriber's stream continues on the same connection from version 3, in the
        # same epoch: the next navd loaded the scene's history, so no snapshot comes.
        resumed = unwrap(subscriber.recv(timeout=15))
        assert resumed.get("kind") != "snapshot", resumed
        assert (resumed["fromVersion"], resumed["toVersion"]) == (3, 4), resumed
        assert writer.call("io.navd.GetState", {"scene": "main"})["epoch"] == old_epoch
        # The watcher's stream was repeated: an activation still reaches it.
        writer.call("io.navd.Mutate", {"scene": "main", "ops": [
            {"op": "defineBarButtonItem", "barButtonItem": {"id": "go", "title": "Go", "action": "go"}},
            {"op": "setToolbarItems", "items": ["go"]}]})
        writer.call("io.navd.Activate", {"scene": "main", "item": "go"})
        # The repeated WatchActions first says it is watching again, then the activation.
        frames = [unwrap(watcher.recv(timeout=15))]
        while "action" not in frames[-1]:
            assert frames[-1].get("kind") == "watching", frames
            frames.append(unwrap(watcher.recv(timeout=15)))
        assert frames[-1]["action"] == "go"
        removed = {m.fields["FDNAME"] for m in notify.snapshot()[mark:] if m.fields.get("FDSTOREREMOVE") == "1"}
        assert removed == set(names), "the next navd empties the store of what it adopted"
    finally:
        for connection in connections:
            connection.close()
        listener.close()
        first.stop()
        if second is not None:
            assert second.stop() == 0
            shutil.rmtree(second.directory, ignore_errors=True)
        shutil.rmtree(first.directory, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)


def test_without_a_service_manager_sigusr2_is_ignored():
    """SIGUSR2 needs a service manager to hold the descriptors; without NOTIFY_SOCKET navd
    says so and keeps serving."""
    from navd_fixture import Navd

    with Navd(name="usr2") as navd, navd.connect() as client:
        os.kill(navd.pid, signal.SIGUSR2)
        assert navd.wait_for_log(r"SIGUSR2 asks for a restart that keeps clients.*ignored")
        assert client.call("io.navd.ListScenes")["scenes"]
