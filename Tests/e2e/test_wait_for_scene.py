"""Subscribe with `waitForScene` (PROTOCOL.md §9.21), over real sockets against a real navd:

- subscribers that connect before the scene exists start with the empty document at
  version 0, and once a writer creates the scene their documents (python `jsonpatch`)
  converge to GetState / GetLayout, with the epoch GetState reports;
- waiting creates no visible scene (ListScenes, GetState, GetServerInfo's `scenes`), and a
  failed creation sends the waiters nothing (the next frame is the update 0 -> 1);
- thousands of seeded connect/disconnect cycles of waiting subscribers leave nothing held:
  the subscriber count returns to its baseline, all 1,024 names of `maxWaitedScenes` can be
  waited for afterwards, and one more is `LimitExceeded` naming it;
- `navctl watch --wait` draws the empty scene and follows its creation.

Seeded: the seed is printed; NAVD_TEST_SEED overrides it.
"""

from __future__ import annotations

import json
import os
import random
import socket
import struct
import subprocess
import time
from pathlib import Path

import pytest

from navd_fixture import DEFAULT_TIMEOUT, Navd, VarlinkConnection, VarlinkError, seed_from_env
from workload import Follower, OpGenerator, fetch_document

REPO = Path(__file__).resolve().parents[2]
NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO / ".build" / "debug" / "navctl"))


class WaitingFollower(Follower):
    """A `Follower` that subscribes with `waitForScene: true`."""

    def parameters(self, since: int | None = None) -> dict:
        parameters = super().parameters(since)
        parameters["waitForScene"] = True
        return parameters


def scene_names(connection: VarlinkConnection) -> list[str]:
    return [scene["name"] for scene in connection.call("io.navd.ListScenes")["scenes"]]


def subscribe_waiting(navd: Navd, scene: str, **parameters) -> tuple[VarlinkConnection, dict]:
    """Opens a waiting subscription; returns the connection and its first frame's parameters."""
    connection = navd.connect()
    connection.send("io.navd.Subscribe", {"scene": scene, "waitForScene": True, **parameters}, more=True)
    reply = connection.recv()
    assert "error" not in reply, reply
    return connection, reply["parameters"]


def test_9_21_subscribers_first_then_writer_converges(navd, fresh_scene):
    """§9.21: subscribers connect first; a writer then creates the scene with random mutations;
    every subscriber's document converges to GetState / GetLayout, gap-free from version 0."""
    seed = seed_from_env(921)
    scene = fresh_scene
    with navd.connect() as reader:
        scenes_before = reader.call("io.navd.GetServerInfo")["scenes"]
        followers = [
            WaitingFollower(navd.socket_path, scene, "state", name="state"),
            WaitingFollower(navd.socket_path, scene, "layout", name="layout"),
            WaitingFollower(navd.socket_path, scene, "layout", width=320, name="layout@320"),
        ]
        for follower in followers:
            follower.start()
        for follower in followers:
            assert follower.subscribed.wait(DEFAULT_TIMEOUT), f"{follower.name}: no snapshot ({follower.problems}, {follower.error})"
            assert follower.record.snapshot_version == 0
        # Waiting created nothing visible.
        assert scene not in scene_names(reader)
        with pytest.raises(VarlinkError) as missing:
            reader.call("io.navd.GetState", {"scene": scene})
        assert missing.value.name == "io.navd.SceneNotFound"
        info = reader.call("io.navd.GetServerInfo")
        assert info["scenes"] == scenes_before
        assert info["subscribers"] >= len(followers), "waiting subscribers are open streams"

        rng = random.Random(seed)
        generator = OpGenerator(rng, 1)
        with navd.connect() as writer:
            first = writer.call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "push", "item": {"id": "root", "title": "Root"}}]})
            assert first["version"] == 1
            for _ in range(200):
                state = writer.call("io.navd.GetState", {"scene": scene})["state"]
                try:
                    writer.call("io.navd.Mutate", {"scene": scene, "ops": generator.mutation(state)})
                except VarlinkError as error:
                    assert error.name in ("io.navd.ItemNotFound", "io.navd.DuplicateItem",
                                          "io.navd.ItemAlreadyOnStack", "io.navd.CannotPopRoot"), error
            final = writer.call("io.navd.GetState", {"scene": scene})
        for follower in followers:
            assert follower.wait_for_version(final["version"], 30), f"{follower.name}: {follower.problems}"
            follower.stop()
            assert not follower.problems, f"{follower.name}: {follower.problems}"
            assert follower.record.updates[0].from_version == 0, follower.name
            assert follower.covered_versions() == list(range(1, final["version"] + 1)), follower.name
            version, expected = fetch_document(reader, scene, follower.view, follower.width)
            assert version == final["version"]
            assert follower.document == expected, f"{follower.name} (seed {seed})"
        assert scene in scene_names(reader)


def test_9_21_snapshot_epoch_is_the_created_scenes(navd, fresh_scene):
    """§9.21: the empty snapshot's epoch is the epoch the scene has once created."""
    connection, first = subscribe_waiting(navd, fresh_scene, view="state")
    with connection, navd.connect() as writer:
        assert (first["kind"], first["version"]) == ("snapshot", 0)
        assert first["document"]["navigationBar"]["items"] == []
        writer.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [{"op": "push", "item": {"id": "root"}}]})
        update = connection.recv()["parameters"]
        assert (update["kind"], update["fromVersion"], update["toVersion"]) == ("update", 0, 1)
        assert writer.call("io.navd.GetState", {"scene": fresh_scene})["epoch"] == first["epoch"]


def test_9_21_failed_creation_sends_nothing_and_leaves_no_scene(navd, fresh_scene):
    """§9.21, §3 Mutate: a failed mutation to a waited scene leaves no trace; the waiter's next
    frame (the positive marker) is the update 0 -> 1 of the first mutation that commits."""
    connection, first = subscribe_waiting(navd, fresh_scene, view="state")
    with connection, navd.connect() as writer:
        for ops in ([{"op": "pop"}], [{"op": "nope"}], []):
            with pytest.raises(VarlinkError):
                writer.call("io.navd.Mutate", {"scene": fresh_scene, "ops": ops})
        assert fresh_scene not in scene_names(writer)
        with pytest.raises(VarlinkError) as missing:
            writer.call("io.navd.GetLayout", {"scene": fresh_scene})
        assert missing.value.name == "io.navd.SceneNotFound"
        writer.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [{"op": "push", "item": {"id": "root"}}]})
        update = connection.recv()["parameters"]
        assert (update["kind"], update["fromVersion"], update["toVersion"]) == ("update", 0, 1), update
        assert writer.call("io.navd.GetState", {"scene": fresh_scene})["epoch"] == first["epoch"]


def test_9_21_parameter_and_names(navd, fresh_scene):
    """§9.21, §9.10: waitForScene must be a bool; without it an unknown scene is still
    SceneNotFound; with it, a name no mutation could create is SceneNotFound too."""
    with navd.connect() as connection:
        connection.send("io.navd.Subscribe", {"scene": fresh_scene, "waitForScene": "yes"}, more=True)
        reply = connection.recv()
        assert reply["error"] == "org.varlink.service.InvalidParameter"
        assert reply["parameters"] == {"parameter": "waitForScene"}
        connection.send("io.navd.Subscribe", {"scene": fresh_scene, "waitForScene": False}, more=True)
        assert connection.recv()["error"] == "io.navd.SceneNotFound"
        connection.send("io.navd.Subscribe", {"scene": "bad name", "waitForScene": True}, more=True)
        reply = connection.recv()
        assert reply["error"] == "io.navd.SceneNotFound" and reply["parameters"]["field"] == "scene", reply


def _close_abruptly(connection: VarlinkConnection) -> None:
    """RST instead of FIN: SO_LINGER with a zero timeout."""
    connection.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


def test_9_21_seeded_churn_of_waiting_subscribers_leaves_nothing():
    """§9.21, §6: 3,000 seeded cycles (connect, subscribe waiting for one of 1,500 names, then
    close before or after the snapshot, with FIN or RST) leave no subscriber and no waited
    name behind: counts return to the baseline, no scene appears, and afterwards more
    all 1,024 names of maxWaitedScenes can be waited for again, and one more is LimitExceeded."""
    seed = seed_from_env(92_103)
    rng = random.Random(seed)
    names = [f"w{n}" for n in range(1500)]
    with Navd(name="wait-churn") as navd, navd.connect() as observer:
        before = observer.call("io.navd.GetServerInfo")
        deadline = time.monotonic() + 120
        for cycle in range(3000):
            assert time.monotonic() < deadline, f"churn ran out of time at cycle {cycle} (seed {seed})"
            connection = navd.connect()
            parameters = {"scene": rng.choice(names), "waitForScene": True}
            if rng.random() < 0.5:
                parameters["view"] = "state"
            connection.send("io.navd.Subscribe", parameters, more=True)
            roll = rng.random()
            if roll < 0.5:
                reply = connection.recv()
                assert reply.get("parameters", {}).get("kind") == "snapshot", f"cycle {cycle} (seed {seed}): {reply}"
            if roll < 0.25 or 0.5 <= roll < 0.75:
                _close_abruptly(connection)
            else:
                connection.close()
        # Bounded wait for the count to return (closes are processed asynchronously).
        wait_until = time.monotonic() + DEFAULT_TIMEOUT
        while True:
            info = observer.call("io.navd.GetServerInfo")
            if info["subscribers"] == before["subscribers"] or time.monotonic() > wait_until:
                break
            time.sleep(0.02)
        assert info["subscribers"] == before["subscribers"], f"seed {seed}"
        assert info["scenes"] == before["scenes"] and scene_names(observer) == ["main"]
        # Every name was released: all 1,024 waited names of the limit are free again, and
        # the next one is refused with the limit named (§9.12).
        held = []
        try:
            for name in [f"again{n}" for n in range(1024)]:
                connection, first = subscribe_waiting(navd, name)
                held.append(connection)
                assert first["version"] == 0
            with navd.connect() as connection:
                connection.send("io.navd.Subscribe", {"scene": "one-more", "waitForScene": True}, more=True)
                reply = connection.recv()
            assert reply["error"] == "io.navd.LimitExceeded", reply
            assert (reply["parameters"]["limit"], reply["parameters"]["max"]) == ("maxWaitedScenes", 1024)
            # A waiting subscriber of a name already waited for is not one more name.
            extra, _ = subscribe_waiting(navd, "again0")
            held.append(extra)
            # Waiting never keeps a writer from creating a scene.
            observer.call("io.navd.Mutate", {"scene": "created", "ops": [{"op": "push", "item": {"id": "r"}}]})
        finally:
            for connection in held:
                connection.close()


def test_navctl_watch_wait_follows_creation(navd, fresh_scene):
    """navctl watch --wait (man navctl, PROTOCOL §9.21): without --wait an unknown scene is exit 5
    with a hint; with it the empty snapshot comes first and the creation follows."""
    env = dict(os.environ, NAVD_SOCKET=navd.socket_path, NO_COLOR="1")
    refused = subprocess.run([str(NAVCTL), "--scene", fresh_scene, "watch"], capture_output=True,
                             text=True, env=env, timeout=20)
    assert refused.returncode == 5 and "watch --wait" in refused.stderr, refused.stderr  # 5: not found
    # With --json the error is one JSON object on stderr (issue 29).
    as_json = subprocess.run([str(NAVCTL), "--scene", fresh_scene, "watch", "--json"], capture_output=True,
                             text=True, env=env, timeout=20)
    assert as_json.returncode == 5 and json.loads(as_json.stderr)["error"] == "io.navd.SceneNotFound", as_json.stderr
    watcher = subprocess.Popen([str(NAVCTL), "--scene", fresh_scene, "watch", "--wait", "--json"],
                               stdout=subprocess.PIPE, text=True, env=env)
    try:
        first = json.loads(watcher.stdout.readline())
        assert (first["kind"], first["version"]) == ("snapshot", 0)
        with navd.connect() as writer:
            writer.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [{"op": "push", "item": {"id": "root"}}]})
        update = json.loads(watcher.stdout.readline())
        assert (update["kind"], update["fromVersion"], update["toVersion"]) == ("update", 0, 1)
    finally:
        watcher.kill()
        watcher.wait(timeout=10)
