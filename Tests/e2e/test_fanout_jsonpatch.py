"""Fan-out: 4 concurrent writers send 1,000 random valid mutations while 3
subscribers (state view; layout view; layout view at width 320) apply every
patch with python's `jsonpatch` (issue 3, "Tests").

At the end each subscriber's document equals GetState / GetLayout(width) at the
final version, and its updates are gap-free and repeat-free: each update's
fromVersion is the previous toVersion, and together they cover every version once
(the versions of one commit group may arrive as one update, PROTOCOL.md §6).

Seeded: the seed is printed; NAVD_TEST_SEED overrides it.
"""

from __future__ import annotations

import collections
import random
import threading
import time

from navd_fixture import DEFAULT_TIMEOUT, VarlinkConnection, VarlinkError, seed_from_env
from workload import Follower, OpGenerator, fetch_document

WRITERS = 4
TOTAL_MUTATIONS = 1000
TIME_BUDGET = 90.0  # seconds, for the whole writing phase


def test_fanout_four_writers_three_subscribers_jsonpatch(navd, fresh_scene):
    seed = seed_from_env(1003)
    scene = fresh_scene
    deadline = time.monotonic() + TIME_BUDGET

    # The scene must exist before subscribing (PROTOCOL.md §3 Subscribe).
    with navd.connect() as setup:
        setup.call("io.navd.Mutate", {"scene": scene, "ops": [
            {"op": "push", "item": {"id": "root", "title": "Root"}}]})

    followers = [
        Follower(navd.socket_path, scene, "state", name="state"),
        Follower(navd.socket_path, scene, "layout", name="layout"),
        Follower(navd.socket_path, scene, "layout", width=320, name="layout@320"),
    ]
    for follower in followers:
        follower.start()
    for follower in followers:
        assert follower.subscribed.wait(DEFAULT_TIMEOUT), f"{follower.name}: no snapshot ({follower.problems}, {follower.error})"

    outcomes: collections.Counter = collections.Counter()
    acked_versions: list[int] = []
    failures: list[str] = []
    lock = threading.Lock()

    def writer(index: int, count: int) -> None:
        rng = random.Random(seed * 1000 + index)
        generator = OpGenerator(rng, index)
        try:
            with VarlinkConnection(navd.socket_path, timeout=10.0) as connection:
                state = connection.call("io.navd.GetState", {"scene": scene})["state"]
                for n in range(count):
                    if time.monotonic() > deadline:
                        with lock:
                            failures.append(f"writer {index} ran out of time after {n} mutations")
                        return
                    if n % 2 == 0:  # sometimes act on slightly stale state
                        state = connection.call("io.navd.GetState", {"scene": scene})["state"]
                    ops = generator.mutation(state)
                    try:
                        reply = connection.call("io.navd.Mutate", {"scene": scene, "ops": ops})
                        with lock:
                            outcomes["ok"] += 1
                            acked_versions.append(reply["version"])
                    except VarlinkError as error:
                        with lock:
                            outcomes[error.name] += 1
                        if error.name not in ("io.navd.ItemNotFound", "io.navd.Conflict", "io.navd.DuplicateItem",
                                              "io.navd.ItemAlreadyOnStack", "io.navd.CannotPopRoot"):
                            with lock:
                                failures.append(f"writer {index}: {ops} -> unexpected {error}")
        except Exception as error:  # noqa: BLE001
            with lock:
                failures.append(f"writer {index} crashed: {error!r}")

    per_writer = TOTAL_MUTATIONS // WRITERS
    threads = [threading.Thread(target=writer, args=(i, per_writer), daemon=True) for i in range(WRITERS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(1.0, deadline - time.monotonic()))
        assert not thread.is_alive(), "a writer did not finish in time"
    elapsed = time.monotonic() - started
    print(f"{TOTAL_MUTATIONS} mutations in {elapsed:.1f} s: {dict(outcomes)}")
    assert not failures, "\n".join(failures)
    assert sum(outcomes.values()) == TOTAL_MUTATIONS
    assert outcomes["ok"] >= TOTAL_MUTATIONS // 2, f"too few mutations succeeded: {dict(outcomes)}"

    # Acks: distinct versions 2..final (version 1 was the setup push).
    with navd.connect() as reader:
        final_version = reader.call("io.navd.GetState", {"scene": scene})["version"]
    assert sorted(acked_versions) == list(range(2, final_version + 1)), "acked versions are not exactly 2..final"

    try:
        for follower in followers:
            assert follower.wait_for_version(final_version, timeout=30), (
                f"{follower.name} stuck at {follower.version} (final {final_version}); "
                f"error={follower.error!r} problems={follower.problems[:5]}")
        with navd.connect() as reader:
            for follower in followers:
                version, document = follower.snapshot()
                server_version, server_document = fetch_document(reader, scene, follower.view, follower.width)
                assert server_version == final_version == version
                assert follower.problems == [], f"{follower.name}: {follower.problems[:10]}"
                assert follower.error is None, f"{follower.name}: {follower.error!r}"
                assert document == server_document, f"{follower.name}'s document differs from the server's"
                # No gap, no repeat: the updates cover every version after the snapshot once.
                snapshot_version = follower.record.snapshot_version
                if not follower.coalesced():
                    assert follower.covered_versions() == list(range(snapshot_version + 1, final_version + 1)), (
                        f"{follower.name}: versions are not consecutive")
                else:
                    print(f"{follower.name} received coalesced updates (fell behind)")
                previous = snapshot_version
                for update in follower.record.updates:
                    assert update.from_version == previous, f"{follower.name}: gap/repeat at {update}"
                    previous = update.to_version
    finally:
        for follower in followers:
            follower.stop()
