"""Proof of convergence over real sockets (issue 5, "Proof"; CONFLICTS.md).

K writers each send M random mutations, pipelined (several calls in flight per
connection before any reply is read) and interleaved with each other and with
their own GetState reads, with random base versions taken from versions they
observed (often stale, sometimes expired), both policies, a clientId per
writer, a mutationId per mutation, and a few exact retries. S subscribers
follow the scene: state, layout, layout@320, and a state subscriber that
disconnects halfway and resumes with sinceVersion.

At the end:
- every subscriber's document equals GetState / GetLayout(width);
- every acknowledged version appears exactly once in every subscriber's stream,
  in order (updates are consecutive, fromVersion = previous toVersion);
- the resumed subscriber got updates, not a snapshot;
- no two acks carry the same version, and the acks cover 1..final with no hole;
- retries were answered from memory (replayed: true, same version, same report);
- replaying the acknowledged ops in version order from the empty scene in a
  fresh navd reproduces GetState exactly (so rejected mutations left no trace);
- every update's push/pop events match the ops acknowledged at that version.

Default (CI): fixed seed, K=8, M=500, S=4. NAVD_TEST_SEED=n picks the seed.
NAVD_LONG=1: several random seeds with M=2000.
"""

from __future__ import annotations

import collections
import json
import os
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from navd_fixture import DEFAULT_TIMEOUT, Navd, VarlinkConnection, encode_call, seed_from_env
from workload import Follower, OpGenerator, fetch_document

K_WRITERS = 8
S_SUBSCRIBERS = 4
LONG = os.environ.get("NAVD_LONG") == "1"
M_MUTATIONS = 2000 if LONG else 500
DEFAULT_SEED = 5005
TIME_BUDGET = 600.0 if LONG else 75.0
ALLOWED_REJECTIONS = {"io.navd.ItemNotFound", "io.navd.Conflict", "io.navd.DuplicateItem",
                      "io.navd.ItemAlreadyOnStack", "io.navd.CannotPopRoot"}


def seeds() -> list[int]:
    if os.environ.get("NAVD_TEST_SEED"):
        return [int(os.environ["NAVD_TEST_SEED"])]
    if LONG:
        return [random.SystemRandom().randrange(1, 2**31) for _ in range(3)]
    return [DEFAULT_SEED]


@dataclass
class Ack:
    version: int
    ops: list
    writer: int
    mutation_id: str
    policy: str | None
    base_version: int | None
    reply: dict


@dataclass
class Shared:
    acks: list[Ack] = field(default_factory=list)
    retries: list[tuple[Ack, dict]] = field(default_factory=list)
    conflicts: list[tuple[int, dict, dict]] = field(default_factory=list)  # (writer, call, error parameters)
    outcomes: collections.Counter = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)
    sent: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def run_writer(index: int, seed: int, socket_path: str, scene: str, shared: Shared, deadline: float) -> None:
    rng = random.Random(seed * 7919 + index)
    generator = OpGenerator(rng, index, pop_without_expect_top=True)
    client_id = f"writer-{index}"
    observed_versions: list[int] = [0]
    retry_candidates: list[tuple[Ack, dict]] = []
    sent = 0
    try:
        with VarlinkConnection(socket_path, timeout=20.0) as connection:
            reply = connection.call("io.navd.GetState", {"scene": scene})
            state, state_version = reply["state"], reply["version"]
            observed_versions.append(state_version)
            while sent < M_MUTATIONS:
                if time.monotonic() > deadline:
                    with shared.lock:
                        shared.failures.append(f"writer {index}: out of time after {sent} mutations")
                    return
                window = rng.randint(1, 6)
                batch: list[tuple[str, Any]] = []  # what each pipelined call was
                payload = bytearray()
                for _ in range(window):
                    if sent >= M_MUTATIONS:
                        break
                    if retry_candidates and rng.random() < 0.03:
                        ack, parameters = retry_candidates.pop(rng.randrange(len(retry_candidates)))
                        payload += encode_call("io.navd.Mutate", parameters)
                        batch.append(("retry", (ack, parameters)))
                        continue  # a retry is not one of the M mutations
                    ops = generator.mutation(state)
                    parameters: dict[str, Any] = {"scene": scene, "ops": ops, "clientId": client_id,
                                                  "mutationId": f"{client_id}-m{sent}"}
                    roll = rng.random()
                    if roll < 0.55:
                        parameters["baseVersion"] = state_version  # what the ops were made from
                    elif roll < 0.80:
                        parameters["baseVersion"] = rng.choice(observed_versions)  # stale
                    elif roll < 0.85:
                        parameters["baseVersion"] = 0  # expired once the log has moved past it
                    # else: blind write
                    policy_roll = rng.random()
                    if policy_roll < 0.45:
                        parameters["policy"] = "failOnConflict"
                    elif policy_roll < 0.9:
                        parameters["policy"] = "lastWriterWins"
                    # else: the default (lastWriterWins)
                    payload += encode_call("io.navd.Mutate", parameters)
                    batch.append(("mutate", parameters))
                    sent += 1
                    # Interleave a read in the pipeline now and then.
                    if rng.random() < 0.2:
                        payload += encode_call("io.navd.GetState", {"scene": scene})
                        batch.append(("state", None))
                if rng.random() < 0.5 or not any(kind == "state" for kind, _ in batch):
                    payload += encode_call("io.navd.GetState", {"scene": scene})
                    batch.append(("state", None))
                # Sometimes send the pipeline in two pieces, split mid-message.
                if len(payload) > 10 and rng.random() < 0.2:
                    cut = rng.randrange(1, len(payload))
                    connection.send_raw(bytes(payload[:cut]))
                    connection.send_raw(bytes(payload[cut:]))
                else:
                    connection.send_raw(bytes(payload))
                for kind, what in batch:
                    reply = connection.recv(timeout=20.0)
                    if kind == "state":
                        if "error" in reply:
                            raise AssertionError(f"GetState failed: {reply}")
                        body = reply["parameters"]
                        if body["version"] >= state_version:
                            state, state_version = body["state"], body["version"]
                        observed_versions.append(body["version"])
                    elif kind == "mutate":
                        handle_mutate_reply(index, what, reply, shared, observed_versions, retry_candidates)
                    else:
                        ack, parameters = what
                        with shared.lock:
                            shared.retries.append((ack, reply))
    except Exception as error:  # noqa: BLE001
        with shared.lock:
            shared.failures.append(f"writer {index} crashed: {error!r}")


def handle_mutate_reply(index: int, parameters: dict, reply: dict, shared: Shared, observed_versions: list[int],
                        retry_candidates: list) -> None:
    if "error" in reply:
        name = reply["error"]
        with shared.lock:
            shared.outcomes[name] += 1
            if name == "io.navd.Conflict":
                shared.conflicts.append((index, parameters, reply.get("parameters") or {}))
            # Writers cap the toolbar against the state they last saw; several stale views together may
            # reach the 32-item limit (more often as commits wait for the disk). Refused whole, like the others.
            limit = (reply.get("parameters") or {}).get("limit")
            full_array = name == "io.navd.LimitExceeded" and limit == "itemsPerArray"
            if name not in ALLOWED_REJECTIONS and not full_array:
                shared.failures.append(f"writer {index}: unexpected {name} {reply.get('parameters')} for "
                                       f"{json.dumps(parameters)}")
        return
    body = reply["parameters"]
    ack = Ack(body["version"], parameters["ops"], index, parameters["mutationId"], parameters.get("policy"),
              parameters.get("baseVersion"), body)
    problems = []
    if body.get("replayed") is not False:
        problems.append("a first attempt was answered replayed")
    if ack.base_version is None and (body["overwritten"] or body["baseVersionExpired"]):
        problems.append("a blind write reported overwrites or an expired base (CONFLICTS S7)")
    if ack.policy == "failOnConflict" and (body["overwritten"] or body["baseVersionExpired"]):
        problems.append("failOnConflict committed despite a conflict / an expired base")
    if ack.base_version is not None and ack.version - ack.base_version <= 1000 and body["baseVersionExpired"]:
        problems.append("baseVersionExpired for a base well inside the op log (1024 versions)")
    for entry in body["overwritten"]:
        if not (isinstance(entry.get("field"), str) and isinstance(entry.get("version"), int)
                and "previousValue" in entry):
            problems.append(f"malformed overwritten entry {entry}")
        elif ack.base_version is not None and not ack.base_version < entry["version"] < ack.version:
            problems.append(f"overwritten version {entry['version']} outside ({ack.base_version}, {ack.version})")
    with shared.lock:
        shared.outcomes["ok"] += 1
        shared.acks.append(ack)
        for problem in problems:
            shared.failures.append(f"writer {index}: {problem}: {json.dumps(parameters)} -> {json.dumps(body)}")
    observed_versions.append(ack.version)
    retry_candidates.append((ack, parameters))
    # Retry only recent successes: navd remembers the last 10,000 mutation ids per scene
    # (CONFLICTS I4); an older id is legitimately forgotten and would be a new attempt.
    del retry_candidates[:-50]


def expected_events(ops: list) -> list[tuple]:
    events = []
    for op in ops:
        if op["op"] == "push":
            events.append(("push", op["item"]["id"], bool(op.get("animated", False))))
        elif op["op"] == "pop":
            events.append(("pop", bool(op.get("animated", False))))
    return events


def actual_events(events: list) -> list[tuple]:
    result = []
    for event in events:
        if event["type"] == "push":
            result.append(("push", event["item"], event["animated"]))
        elif event["type"] == "pop":
            result.append(("pop", event["animated"]))
        else:
            result.append((event["type"],))
    return result


@pytest.mark.parametrize("seed", seeds())
def test_convergence(navd, fresh_scene, seed):
    seed = seed_from_env(seed)
    scene = fresh_scene
    started = time.monotonic()
    deadline = started + TIME_BUDGET
    shared = Shared()

    # Version 1: a root, so subscribers have a scene to follow. It is an ack like any other.
    setup_ops = [{"op": "push", "item": {"id": "root", "title": "Root"}}]
    with navd.connect() as setup:
        reply = setup.call("io.navd.Mutate", {"scene": scene, "ops": setup_ops, "clientId": "setup",
                                              "mutationId": "setup-0"})
    shared.acks.append(Ack(reply["version"], setup_ops, -1, "setup-0", None, None, reply))
    assert reply["version"] == 1

    followers = [
        Follower(navd.socket_path, scene, "state", name="state", deadline_seconds=TIME_BUDGET + 60),
        Follower(navd.socket_path, scene, "layout", name="layout", deadline_seconds=TIME_BUDGET + 60),
        Follower(navd.socket_path, scene, "layout", width=320, name="layout@320",
                 deadline_seconds=TIME_BUDGET + 60),
        Follower(navd.socket_path, scene, "state", name="state-resumed", deadline_seconds=TIME_BUDGET + 60),
    ]
    assert len(followers) == S_SUBSCRIBERS
    resumer = followers[3]
    try:
        for follower in followers:
            follower.start()
        for follower in followers:
            assert follower.subscribed.wait(DEFAULT_TIMEOUT), f"{follower.name}: no snapshot"

        threads = [threading.Thread(target=run_writer, args=(i, seed, navd.socket_path, scene, shared, deadline),
                                    daemon=True) for i in range(K_WRITERS)]
        for thread in threads:
            thread.start()

        # Halfway: disconnect one subscriber and resume it with sinceVersion.
        half = K_WRITERS * M_MUTATIONS // 2
        while time.monotonic() < deadline and any(t.is_alive() for t in threads):
            with shared.lock:
                done = shared.outcomes["ok"] + sum(v for k, v in shared.outcomes.items() if k != "ok")
            if done >= half:
                break
            time.sleep(0.005)
        resume_from = resumer.version
        resumer.resume_requested.set()
        assert resumer.resumed.wait(DEFAULT_TIMEOUT), "the resuming subscriber did not reconnect"

        for thread in threads:
            thread.join(max(1.0, deadline - time.monotonic()))
            assert not thread.is_alive(), "a writer did not finish within the time budget"
        writing_time = time.monotonic() - started
        print(f"seed {seed}: {K_WRITERS}x{M_MUTATIONS} mutations in {writing_time:.1f} s: "
              f"{dict(shared.outcomes)}, {len(shared.retries)} retries; resumed from version {resume_from}")
        assert not shared.failures, "\n".join(shared.failures[:20])
        assert sum(shared.outcomes.values()) == K_WRITERS * M_MUTATIONS
        assert shared.outcomes["ok"] >= K_WRITERS * M_MUTATIONS // 4, f"too few commits: {dict(shared.outcomes)}"
        assert shared.outcomes["io.navd.Conflict"] > 0, "the workload produced no conflict at all"
        overwriting = sum(1 for ack in shared.acks if ack.reply["overwritten"])
        expired = sum(1 for ack in shared.acks if ack.reply["baseVersionExpired"])
        print(f"{overwriting} lastWriterWins acks reported overwrites; {expired} acks had an expired base")
        assert overwriting > 0, "no lastWriterWins mutation overwrote another client's field"
        if max(ack.version for ack in shared.acks) > 1100:
            assert expired > 0, "baseVersion 0 was never reported expired although the log moved past it"

        # Acks: unique versions, covering 1..final with no hole.
        with navd.connect() as reader:
            final_version = reader.call("io.navd.GetState", {"scene": scene})["version"]
        versions = [ack.version for ack in shared.acks]
        duplicates = [v for v, n in collections.Counter(versions).items() if n > 1]
        assert not duplicates, f"two acks carry the same version: {duplicates[:10]}"
        missing = sorted(set(range(1, final_version + 1)) - set(versions))
        assert not missing, f"versions committed but acked to no one: {missing[:10]}"
        assert max(versions) == final_version
        by_version = {ack.version: ack for ack in shared.acks}

        # Retries were answered from memory, with the original version and report.
        for ack, reply in shared.retries:
            assert "error" not in reply, f"retry of {ack.mutation_id} failed: {reply}"
            body = reply["parameters"]
            assert body["replayed"] is True, f"retry of {ack.mutation_id} not replayed: {body}"
            assert body["version"] == ack.version
            assert body["overwritten"] == ack.reply["overwritten"]

        # Subscribers: caught up, equal to the server's documents, every version once and in order.
        for follower in followers:
            assert follower.wait_for_version(final_version, timeout=30), (
                f"{follower.name} stuck at {follower.version} of {final_version}: "
                f"{follower.error!r} {follower.problems[:5]}")
        with navd.connect() as reader:
            for follower in followers:
                version, document = follower.snapshot()
                assert follower.error is None, f"{follower.name}: {follower.error!r}"
                assert follower.problems == [], f"{follower.name}: {follower.problems[:10]}"
                server_version, server_document = fetch_document(reader, scene, follower.view, follower.width)
                assert version == server_version == final_version
                assert document == server_document, f"{follower.name}: document differs from the server's"
                assert not follower.coalesced(), (
                    f"{follower.name} was coalesced (fell behind); the exactly-once check cannot run")
                assert follower.covered_versions() == list(range(follower.record.snapshot_version + 1, final_version + 1)), (
                    f"{follower.name}: versions not exactly once and in order")
                if follower.view == "state":
                    for update in follower.record.updates:
                        # A span of one commit group's versions (§6) carries no events: none of them had any.
                        covered = range(update.from_version + 1, update.to_version + 1)
                        expected = [e for v in covered for e in expected_events(by_version[v].ops)]
                        assert actual_events(update.events) == expected, (
                            f"{follower.name}: events of versions {update.from_version + 1}…{update.to_version}")
                        assert len(covered) == 1 or expected == [], (
                            f"{follower.name}: versions with events were merged into one update")
        assert resumer.record.first_kind_after_resume in ("update", None), (
            f"resuming from {resume_from} (in the op log) sent a {resumer.record.first_kind_after_resume}")
        assert resumer.record.first_kind_after_resume == "update" or resume_from == final_version
        assert resumer.record.snapshot_version == 1 and all(u.from_version >= 0 for u in resumer.record.updates), (
            "the resumed subscriber received a second snapshot")

        with navd.connect() as reader:
            final_state = reader.call("io.navd.GetState", {"scene": scene})
    finally:
        for follower in followers:
            follower.stop()

    # Replay the acknowledged ops, in version order, from the empty scene of a fresh navd.
    # Keep the state before each mutation that reported overwrites, to check its report.
    needed = {ack.version - 1 for ack in shared.acks if ack.reply["overwritten"]}
    needed |= {error["currentVersion"] for _, _, error in shared.conflicts
               if isinstance(error.get("currentVersion"), int) and error.get("conflicts")}
    states_before: dict[int, dict] = {}
    replay_started = time.monotonic()
    with Navd(name="replay") as fresh:
        with fresh.connect() as connection:
            if 0 in needed:
                states_before[0] = connection.call("io.navd.GetState", {"scene": "main"})["state"]
            window = 64
            for start in range(1, final_version + 1, window):
                chunk = list(range(start, min(final_version, start + window - 1) + 1))
                payload = bytearray()
                for v in chunk:
                    payload += encode_call("io.navd.Mutate", {"scene": "main", "ops": by_version[v].ops})
                    if v in needed:
                        payload += encode_call("io.navd.GetState", {"scene": "main"})
                connection.send_raw(bytes(payload))
                for v in chunk:
                    reply = connection.recv(timeout=20.0)
                    assert "error" not in reply, (
                        f"replaying version {v} ({json.dumps(by_version[v].ops)}) failed: {reply}")
                    assert reply["parameters"]["version"] == v
                    if v in needed:
                        states_before[v] = connection.recv(timeout=20.0)["parameters"]["state"]
            replayed = connection.call("io.navd.GetState", {"scene": "main"})
    assert replayed["version"] == final_state["version"]
    assert replayed["state"] == final_state["state"], "replaying the acked ops did not reproduce the final state"
    # Also byte-for-byte, as JSON with sorted keys.
    assert json.dumps(replayed["state"], sort_keys=True) == json.dumps(final_state["state"], sort_keys=True)
    print(f"replayed {final_version} versions in {time.monotonic() - replay_started:.1f} s; "
          f"total {time.monotonic() - started:.1f} s")

    # Each lastWriterWins overwrite report (CONFLICTS F4): previousValue is the field's value
    # just before the mutation, and version names a commit by *another* client (V8).
    checked = 0
    for ack in shared.acks:
        for entry in ack.reply["overwritten"]:
            other = by_version.get(entry["version"])
            assert other is not None and other.writer != ack.writer, (
                f"version {ack.version} (writer {ack.writer}) reports overwriting {entry}, "
                f"written by writer {other.writer if other else '?'}")
            known, value = field_value(states_before[ack.version - 1], entry["field"])
            if known:
                checked += 1
                assert entry["previousValue"] == value, (
                    f"version {ack.version}: {entry} but the value before was {value!r}")
    print(f"checked {checked} overwrite reports against the replayed states")

    # Each failOnConflict rejection (CONFLICTS F5, S2, S3, V7) carries currentVersion; a field
    # conflict lists each key with its current value and the version (by another client) that
    # last touched it.
    checked = 0
    for writer, call, error in shared.conflicts:
        current = error.get("currentVersion")
        if error.get("field") == "baseVersion":
            assert call.get("policy") == "failOnConflict", f"expired base rejected under lastWriterWins: {error}"
            assert current - call["baseVersion"] > 1000, f"base {call['baseVersion']} rejected as expired: {error}"
            continue
        if not error.get("conflicts"):
            continue  # a structural conflict (pop/expectTop): the op index is enough
        assert call.get("policy") == "failOnConflict", f"field conflict rejected under lastWriterWins: {error}"
        assert isinstance(current, int) and 1 <= current <= final_version, error
        for entry in error["conflicts"]:
            other = by_version.get(entry["version"])
            assert other is not None and other.writer != writer and entry["version"] <= current, (
                f"writer {writer}'s {call['mutationId']} conflicts with {entry}, by writer "
                f"{other.writer if other else '?'} (currentVersion {current})")
            assert call.get("baseVersion") is not None and entry["version"] > call["baseVersion"], (
                f"conflict with a version not after baseVersion: {entry} {call.get('baseVersion')}")
            known, value = field_value(states_before[current], entry["field"])
            if known:
                checked += 1
                assert entry["currentValue"] == value, (
                    f"{call['mutationId']}: {entry} but at version {current} the value was {value!r}")
    print(f"checked {checked} conflict reports against the replayed states")


def field_value(state: dict, key: str) -> tuple[bool, Any]:
    """The value of a CONFLICTS.md §3 field key in a state document (None when unset or gone);
    (False, None) for a key this test does not resolve."""
    parts = key.split("/")
    if parts[0] == "navigationItem" and len(parts) == 3:
        item = next((i for i in state["navigationBar"]["items"] if i["id"] == parts[1]), None)
        if item is None:
            return True, None
        if parts[2] in ("leftBarButtonItem", "rightBarButtonItem"):
            items = item.get(parts[2] + "s") or []
            return True, items[0] if items else None
        return True, item.get(parts[2])
    if parts[0] == "barButtonItem" and len(parts) == 3:
        item = next((i for i in state["barButtonItems"] if i["id"] == parts[1]), None)
        return True, None if item is None else item.get(parts[2])
    if key in ("navigationBar/hidden", "toolbar/hidden"):
        return True, state[parts[0]]["hidden"]
    if parts[0] == "appearance" and len(parts) == 3:
        holder = {"navigationBar": state["navigationBar"]["appearance"],
                  "toolbar": state["toolbar"]["appearance"],
                  "defaultNavigationBar": state["appearanceDefaults"]["navigationBar"],
                  "defaultToolbar": state["appearanceDefaults"]["toolbar"]}.get(parts[1])
        if holder is not None:
            return True, holder.get(parts[2])
    return False, None
