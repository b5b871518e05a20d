"""issue 27 item 9: a reload (SIGHUP) that takes a right back ends the streams that relied
on it — Subscribe, Subscribe waiting for its scene, WatchActions — each with a final
org.varlink.service.PermissionDenied carrying `revoked: true` (PROTOCOL.md §10 "Reload");
streams the new policy still grants go on, and the connection stays usable."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

from navd_fixture import Navd, VarlinkConnection, unwrap

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="connects as another uid: run as root")

READER = 47031  # numeric uid with no passwd entry
DENIED = "org.varlink.service.PermissionDenied"
PUSH_ROOT = [
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "go", "title": "Go", "action": "go"}},
    {"op": "push", "item": {"id": "root", "title": "Root", "rightBarButtonItems": ["go"]}},
]


@contextlib.contextmanager
def as_reader():
    os.setegid(READER)
    os.seteuid(READER)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


def connect_as_reader(navd: Navd) -> VarlinkConnection:
    with as_reader():
        return navd.connect(timeout=15)


def test_revoking_read_ends_the_streams_that_relied_on_it():
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-revoke-"))
    policy = directory / "policy.conf"
    policy.write_text(f"[Access]\nAllow=user:{READER} read scene:main scene:keep scene:later\n")
    navd = Navd(args=["--policy", str(policy)], name="revoke").start()
    try:
        os.chmod(navd.directory, 0o711)
        os.chmod(navd.socket_path, 0o666)
        with navd.connect() as root:
            for scene in ["main", "keep"]:
                root.call("io.navd.Mutate", {"scene": scene, "ops": PUSH_ROOT})
            subscriber, watcher, waiter, kept = (connect_as_reader(navd) for _ in range(4))
            subscriber.send("io.navd.Subscribe", {"scene": "main", "view": "state"}, more=True)
            assert unwrap(subscriber.recv())["kind"] == "snapshot"
            watcher.send("io.navd.WatchActions", {"scene": "main"}, more=True)
            assert "scene" in unwrap(watcher.recv())
            waiter.send("io.navd.Subscribe", {"scene": "later", "view": "state", "waitForScene": True}, more=True)
            assert unwrap(waiter.recv())["version"] == 0  # the empty document of a scene not yet made
            kept.send("io.navd.Subscribe", {"scene": "keep", "view": "state"}, more=True)
            assert unwrap(kept.recv())["kind"] == "snapshot"
            # Registered: the next reload sees all four.
            assert root.call("io.navd.GetServerInfo")["subscribers"] == 4

            before = len(navd.log_lines())
            policy.write_text(f"[Access]\nAllow=user:{READER} read scene:keep\n")
            os.kill(navd.pid, signal.SIGHUP)
            reloaded = navd.wait_for_log(r"access policy reloaded", after=before)
            assert reloaded and "revoked_streams=3" in reloaded[0], reloaded

            for connection, scene, method in [(subscriber, "main", "Subscribe"), (watcher, "main", "WatchActions"),
                                              (waiter, "later", "Subscribe")]:
                final = connection.recv()
                assert final.get("error") == DENIED, final
                assert final["parameters"]["revoked"] is True
                assert final["parameters"]["right"] == "read"
                assert final["parameters"]["scene"] == scene
                assert "revoked" in final["parameters"]["message"] and method in final["parameters"]["message"]
                # The connection stays open for what the peer may still do.
                assert connection.call("io.navd.GetState", {"scene": "keep"})["version"] == 1
            with pytest.raises(Exception) as denied:
                subscriber.call("io.navd.GetState", {"scene": "main"})
            assert DENIED in str(denied.value)

            # The stream the new policy still grants goes on.
            root.call("io.navd.Mutate", {"scene": "keep", "ops": [
                {"op": "updateNavigationItem", "item": "root", "set": {"title": "Still"}}]})
            assert unwrap(kept.recv())["toVersion"] == 2
            assert root.call("io.navd.GetServerInfo")["subscribers"] == 1
            for connection in (subscriber, watcher, waiter, kept):
                connection.close()
    finally:
        navd.cleanup()
        shutil.rmtree(directory, ignore_errors=True)
