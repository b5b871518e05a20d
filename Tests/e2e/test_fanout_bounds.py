"""Fan-out that stays bounded (issue 9; PROTOCOL.md §3 Subscribe / WatchActions, §6
"Bounded memory"), over real sockets against a real navd:

- a subscriber that never reads keeps navd's RSS within its queue limit plus one
  document plus a small constant, and later gets an exact coalesced update;
- subscriber counts (ListScenes, GetServerInfo) return to the true number after
  seeded churn under a writer, with non-reading and abruptly closed subscribers;
- every new subscriber's first frame is its snapshot, under heavy writes;
- a watcher that never reads stays bounded and is told how many activations it lost,
  and every Activate reply counts only the watchers that really queued it.
"""

from __future__ import annotations

import json
import random
import socket
import struct
import threading
import time

import jsonpatch

from navd_fixture import Navd, VarlinkConnection, seed_from_env

# ~2 MiB state document: 512 bar button items, each with 16 possible titles of 250 bytes.
TITLES = [str(n % 10) * 250 for n in range(16)]


def build_large_scene(connection: VarlinkConnection, scene: str, items: int = 512) -> None:
    for start in range(0, items, 32):
        ops = [{"op": "defineBarButtonItem",
                "barButtonItem": {"id": f"b{i}", "title": f"Button {i}", "possibleTitles": TITLES}}
               for i in range(start, min(items, start + 32))]
        connection.call("io.navd.Mutate", {"scene": scene, "ops": ops})
    connection.call("io.navd.Mutate", {"scene": scene, "ops": [{"op": "push", "item": {"id": "root"}}]})


def small_receive_buffer(connection: VarlinkConnection) -> VarlinkConnection:
    connection.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    return connection


def pipelined_mutations(connection: VarlinkConnection, scene: str, ops_for, count: int, window: int = 32) -> list:
    """Sends `count` mutations keeping `window` in flight; returns their replies' parameters."""
    replies = []
    sent = 0
    while len(replies) < count:
        while sent < count and sent - len(replies) < window:
            connection.send("io.navd.Mutate", {"scene": scene, "ops": ops_for(sent)})
            sent += 1
        reply = connection.recv(timeout=30)
        assert "error" not in reply, reply
        replies.append(reply["parameters"])
    return replies


def read_through(subscriber: VarlinkConnection, version: int) -> None:
    """Reads a subscriber's updates until it has `version` (the versions of one commit group
    may arrive as one update, PROTOCOL.md §6)."""
    while subscriber.recv(timeout=30)["parameters"].get("toVersion", -1) < version:
        pass


def live_subscribers(navd: Navd, scene: str) -> tuple[int, int]:
    with navd.connect() as connection:
        scenes = {s["name"]: s for s in connection.call("io.navd.ListScenes")["scenes"]}
        info = connection.call("io.navd.GetServerInfo")
    return scenes[scene]["subscribers"], info["subscribers"]


def wait_for_count(navd: Navd, scene: str, expected: int, timeout: float = 10.0) -> tuple[int, int]:
    """Polls (bounded) until ListScenes and GetServerInfo both report `expected`."""
    deadline = time.monotonic() + timeout
    while True:
        counts = live_subscribers(navd, scene)
        if counts == (expected, expected) or time.monotonic() > deadline:
            return counts
        time.sleep(0.02)


def test_non_reading_subscriber_keeps_rss_bounded():
    """§6 Bounded memory: a subscriber that stops reading costs at most its queue limit plus one
    document (today each queued update kept its own document: 28 MB -> 3 GB on a 2.3 MB state)."""
    queue_bytes = 1 << 20
    with Navd(name="rss", args=["--subscriber-queue-bytes", str(queue_bytes)]) as navd:
        scene = "big"
        with navd.connect(timeout=30) as writer, navd.connect(timeout=30) as reader:
            build_large_scene(writer, scene)
            state = writer.call("io.navd.GetState", {"scene": scene})
            document_bytes = len(json.dumps(state["state"], separators=(",", ":")))
            assert document_bytes > 2_000_000, document_bytes
            # A reader that keeps up: navd has built, diffed and sent this view's documents.
            reader.send("io.navd.Subscribe", {"scene": scene, "view": "state"}, more=True)
            assert reader.recv(timeout=30)["parameters"]["kind"] == "snapshot"

            def retitle(n):  # ~4 kB updates: the queue overflows after ~250 of them
                return [{"op": "updateBarButtonItem", "barButtonItem": f"b{n % 512}",
                         "set": {"possibleTitles": [f"{n}-{t}"[:250] for t in TITLES]}}]

            read_through(reader, pipelined_mutations(writer, scene, retitle, 20)[-1]["version"])
            baseline = navd.rss_kib()

            slow = small_receive_buffer(navd.connect(timeout=30))
            try:
                slow.send("io.navd.Subscribe", {"scene": scene, "view": "state"}, more=True)
                peak = baseline
                for batch in range(8):
                    replies = pipelined_mutations(writer, scene, lambda n: retitle(1000 * (batch + 1) + n), 100)
                    read_through(reader, replies[-1]["version"])
                    peak = max(peak, navd.rss_kib())
                # Two queue limits (the reader too is read only between batches, so its queue
                # may fill as well) + one document (the last one it was sent; counted twice for
                # its in-memory tree) + one more for the store: a snapshot of the scene (every 256
                # versions) waits in the redo log's memory until its applier writes it (STORAGE.md
                # §2) + a constant for the connections' output buffers and malloc.
                allowed_kib = (2 * queue_bytes + 3 * document_bytes) // 1024 + 8 * 1024
                print(f"RSS {baseline} -> peak {peak} KiB (+{peak - baseline}); allowed +{allowed_kib} KiB")
                assert peak - baseline <= allowed_kib, (
                    f"RSS grew {peak - baseline} KiB with one non-reading subscriber over 800 versions "
                    f"(document {document_bytes} bytes, allowed {allowed_kib} KiB)")
                # The slow subscriber reads at last: its snapshot, then updates ending exactly at the state.
                first = slow.recv(timeout=60)["parameters"]
                assert first["kind"] == "snapshot"
                document, version = first["document"], first["version"]
                final = writer.call("io.navd.GetState", {"scene": scene})
                coalesced = 0
                while version < final["version"]:
                    update = slow.recv(timeout=60)["parameters"]
                    assert update["kind"] == "update" and update["fromVersion"] == version, update
                    coalesced += bool(update.get("coalesced"))
                    document = jsonpatch.apply_patch(document, update["patch"])
                    version = update["toVersion"]
                assert coalesced >= 1, "800 versions of ~4 kB each must have overflowed a 1 MiB queue"
                assert document == final["state"]
            finally:
                slow.close()


def test_counts_stay_true_after_churn():
    """§6: counts are the live streams, whatever closed them (today a subscriber dropped during
    publish stayed counted, and after enough churn the scene refused every Subscribe)."""
    seed = seed_from_env(20261130)
    rng = random.Random(seed)
    with Navd(name="churn", args=["--subscriber-queue-bytes", "4096"]) as navd:
        scene = "churn"
        with navd.connect() as setup:
            setup.call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "defineBarButtonItem", "barButtonItem": {"id": "go", "title": "Go"}},
                {"op": "push", "item": {"id": "root", "title": "Root", "rightBarButtonItems": ["go"]}}]})
        stop = threading.Event()
        failures: list[str] = []

        def write():
            try:
                with navd.connect() as writer:
                    n = 0
                    while not stop.is_set() and n < 100_000:
                        writer.call("io.navd.Mutate", {"scene": scene, "ops": [
                            {"op": "updateNavigationItem", "item": "root", "set": {"title": f"T{n} " + "x" * 200}}]})
                        n += 1
            except Exception as error:  # noqa: BLE001
                failures.append(repr(error))

        thread = threading.Thread(target=write, daemon=True)
        thread.start()
        live: list[VarlinkConnection] = []
        try:
            for cycle in range(600):
                action = rng.randrange(5)
                if action <= 1 or not live:
                    connection = small_receive_buffer(navd.connect())
                    if rng.randrange(4) == 0:
                        connection.send("io.navd.WatchActions", {"scene": scene}, more=True)
                    else:
                        view = rng.choice([{"view": "state"}, {}, {"width": 320}])
                        connection.send("io.navd.Subscribe", {"scene": scene, **view}, more=True)
                        if rng.randrange(2) == 0:
                            connection.recv(timeout=10)  # some read their snapshot, some never read
                    live.append(connection)
                elif action == 2:
                    live.pop(rng.randrange(len(live))).close()
                elif action == 3:
                    # An abrupt close (RST) while updates are pending.
                    connection = live.pop(rng.randrange(len(live)))
                    connection.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    connection.close()
                else:
                    with navd.connect() as activator:
                        activator.call("io.navd.Activate", {"scene": scene, "item": "go"})
                if cycle % 100 == 99:
                    counts = wait_for_count(navd, scene, len(live))
                    assert counts == (len(live), len(live)), f"seed {seed} cycle {cycle}: {counts}, {len(live)} live"
        finally:
            for connection in live:
                connection.close()
            stop.set()
            thread.join(30)
        assert not failures, failures
        counts = wait_for_count(navd, scene, 0)
        assert counts == (0, 0), f"seed {seed}: {counts} subscribers counted with none connected"


def test_first_frame_is_snapshot_under_heavy_writes():
    """§3 Subscribe: the first frame is the snapshot, never a coalesced update (today 17 of 200
    new subscribers on a busy scene got an `update` first)."""
    with Navd(name="snap", args=["--subscriber-queue-bytes", "4096"]) as navd:
        scene = "busy"
        with navd.connect(timeout=30) as setup:
            build_large_scene(setup, scene, items=16)  # ~64 kB state: bigger than the queue
        stop = threading.Event()
        failures: list[str] = []

        def write():
            try:
                with navd.connect(timeout=30) as writer:
                    n = 0
                    while not stop.is_set() and n < 10_000:
                        pipelined_mutations(writer, scene, lambda k: [
                            {"op": "updateNavigationItem", "item": "root", "set": {"title": f"W{n}-{k}"}}], 50)
                        n += 1
            except Exception as error:  # noqa: BLE001
                failures.append(repr(error))

        thread = threading.Thread(target=write, daemon=True)
        thread.start()
        kinds = []
        try:
            for i in range(200):
                with navd.connect(timeout=30) as subscriber:
                    subscriber.send("io.navd.Subscribe", {"scene": scene, "view": "state" if i % 2 else "layout"},
                                    more=True)
                    first = subscriber.recv(timeout=30)["parameters"]
                    kinds.append(first["kind"])
                    if first["kind"] == "snapshot":
                        following = subscriber.recv(timeout=30)["parameters"]
                        assert following["fromVersion"] == first["version"], following
        finally:
            stop.set()
            thread.join(30)
        assert not failures, failures
        assert kinds == ["snapshot"] * 200, f"{200 - kinds.count('snapshot')} of 200 started with something else"


def test_non_reading_watcher_bounded_and_told():
    """§3 WatchActions: a watcher that does not read queues at most its queue limit, is told how
    many activations it lost, and each Activate reply counts only the watchers that queued it
    (today 199k of 200k activations were silently lost while every reply said `watchers: 1`)."""
    with Navd(name="watch", args=["--subscriber-queue-bytes", "4096"]) as navd:
        scene = "acts"
        with navd.connect() as setup:
            setup.call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "defineBarButtonItem", "barButtonItem": {"id": "go", "title": "Go", "action": "a" * 200}},
                {"op": "push", "item": {"id": "root", "rightBarButtonItems": ["go"]}}]})
        watcher = small_receive_buffer(navd.connect(timeout=30))
        try:
            watcher.send("io.navd.WatchActions", {"scene": scene}, more=True)
            assert watcher.recv()["parameters"] == {"kind": "watching", "scene": scene, "version": 1}
            baseline = navd.rss_kib()
            total = 20_000
            queued = 0
            with navd.connect(timeout=30) as front:
                sent = received = 0
                while received < total:
                    while sent < total and sent - received < 64:
                        front.send("io.navd.Activate", {"scene": scene, "item": "go"})
                        sent += 1
                    reply = front.recv(timeout=30)
                    assert "error" not in reply, reply
                    queued += reply["parameters"]["watchers"]
                    received += 1
                grown = navd.rss_kib() - baseline
                print(f"watcher: RSS +{grown} KiB for {total} activations, {queued} queued")
                assert grown <= 16 * 1024, f"RSS grew {grown} KiB for {total} activations to a watcher that never reads"
                assert 0 < queued < total, queued
                activations = dropped = 0
                while dropped == 0:
                    frame = watcher.recv(timeout=30)["parameters"]
                    if frame["kind"] == "activation":
                        activations += 1
                    else:
                        assert frame["kind"] == "dropped" and frame["version"] == 1, frame
                        dropped = frame["dropped"]
                assert activations == queued, "every activation a reply counted was delivered"
                assert activations + dropped == total
                # After the report the watcher gets activations again (a positive marker).
                assert front.call("io.navd.Activate", {"scene": scene, "item": "go"})["watchers"] == 1
                assert watcher.recv(timeout=10)["parameters"]["kind"] == "activation"
        finally:
            watcher.close()


def test_resume_over_budget_gets_snapshot():
    """§6 Resuming: (V − S) × snapshot bytes over 8 MiB gets a snapshot instead of a replay that
    would rebuild every document on the loop (today: a 2–6 s stall for 1,000 versions)."""
    with Navd(name="resume") as navd:
        with navd.connect(timeout=30) as writer:
            build_large_scene(writer, "big")
            writer.call("io.navd.Mutate", {"scene": "small", "ops": [{"op": "push", "item": {"id": "root"}}]})
            for scene in ["big", "small"]:
                pipelined_mutations(writer, scene, lambda n: [
                    {"op": "updateNavigationItem", "item": "root", "set": {"title": f"T{n}"}}], 20)
            for scene, expected in [("big", "snapshot"), ("small", "update")]:
                version = writer.call("io.navd.GetState", {"scene": scene})["version"]
                with navd.connect(timeout=30) as subscriber:
                    subscriber.send("io.navd.Subscribe", {"scene": scene, "view": "state", "sinceVersion": version - 20},
                                    more=True)
                    first = subscriber.recv(timeout=30)["parameters"]
                    assert first["kind"] == expected, (scene, first.get("kind"))
                    if expected == "update":
                        assert first["fromVersion"] == version - 20
