"""Issue 8 "Crash test": kill -9 at any moment loses nothing that was acknowledged.

Several writers pipeline mutations into a navd with a durable state directory
while it is killed with SIGKILL at a random moment; navd is restarted on the
same state directory each time, at least 20 times per run. After every
restart, for every scene written so far (this cycle's and all earlier ones):

- every acknowledged mutation is present, in order: writer w's k-th mutation
  defines bar button item `w<w>-<k>`; the defined ids of each writer are exactly
  0..n with no hole, n at least its last acknowledged k and at most its last
  sent k (an unacknowledged mutation may have committed, never anything beyond);
- unacknowledged ones are fully there or fully absent: the same mutation also
  sets the title of the writer's navigation item to k, and that title is n;
- versions are never reused: each mutation is one version, so the scene's
  version is its setup versions plus the count of defined items; a version
  acknowledged before a crash is never acknowledged again for another mutation;
- a subscriber that followed a scene before the crash resumes (`sinceVersion`,
  `epoch`) after the restart and, applying every patch with `jsonpatch`, ends
  exactly at GetState. Whether one of them was behind at the kill, and by how
  much, is up to the timing; so a last kill leaves a subscriber behind on
  purpose, by versions the stored log holds, and it must resume with patches
  (the epoch and the stored log survived), not a snapshot.

Short mode (default, CI): 20 kills. NAVD_LONG=1: 100 kills with longer runs.
NAVD_TEST_SEED picks the seed (kill moments, run lengths); the timing of a
kill relative to the writers is up to the machine, so a seed reproduces the
schedule, not the exact interleaving.
"""

from __future__ import annotations

import os
import random
import signal
import tempfile
import threading
import time
import shutil
from dataclasses import dataclass, field

import jsonpatch

from navd_fixture import DEFAULT_TIMEOUT, ConnectionClosed, Navd, ReplyTimeout, VarlinkConnection, seed_from_env

LONG = bool(os.environ.get("NAVD_LONG"))
KILLS = 100 if LONG else 20
WRITERS = 4
SCENES_PER_CYCLE = 2  # two writers share each scene: their groups interleave
WINDOW = 16  # mutations in flight per writer (pipelined)
MAX_PER_WRITER = 200  # stays inside the 512 bar button items per scene (SEMANTICS R66)
SETUP_VERSIONS = 2  # one push per writer of the scene


@dataclass
class WriterLog:
    writer: int
    scene: str
    sent: int = 0  # mutations 0..sent-1 were written to the socket (at least partly)
    acked: list[int] = field(default_factory=list)  # versions of mutations 0..len-1, acknowledged
    errors: list[str] = field(default_factory=list)


def scene_name(cycle: int, writer: int) -> str:
    return f"k{cycle}-{writer % SCENES_PER_CYCLE}"


def mutation(writer: int, k: int) -> dict:
    return {"ops": [
        {"op": "defineBarButtonItem", "barButtonItem": {"id": f"w{writer}-{k}", "title": f"{k}"}},
        {"op": "updateNavigationItem", "item": f"w{writer}", "set": {"title": f"{k}"}},
    ]}


def write_pipelined(socket_path: str, log: WriterLog, stop: threading.Event) -> None:
    """Keeps WINDOW mutations in flight until navd dies or MAX_PER_WRITER are sent."""
    try:
        connection = VarlinkConnection(socket_path, timeout=10.0)
    except OSError as error:
        log.errors.append(f"connect: {error}")
        return
    try:
        while not stop.is_set():
            while log.sent - len(log.acked) < WINDOW and log.sent < MAX_PER_WRITER:
                k = log.sent
                log.sent += 1  # counted before the write: a partial write may still commit
                connection.send("io.navd.Mutate", {"scene": log.scene, **mutation(log.writer, k)})
            if len(log.acked) == log.sent:
                return
            reply = connection.recv(timeout=10.0)
            if "error" in reply:
                log.errors.append(f"mutation {len(log.acked)}: {reply}")
                return
            log.acked.append(reply["parameters"]["version"])
    except (ConnectionClosed, ReplyTimeout, OSError):
        return  # killed: what was not acknowledged may or may not have committed
    finally:
        connection.close()


class ResumingFollower:
    """Follows a scene's state document and resumes after a restart from the last version seen."""

    def __init__(self, scene: str):
        self.scene = scene
        self.document = None
        self.version: int | None = None
        self.epoch: str | None = None
        self.problems: list[str] = []
        self.kinds: list[str] = []

    def follow(self, socket_path: str, stop: threading.Event, until_version: int | None = None,
               deadline: float = DEFAULT_TIMEOUT) -> None:
        parameters = {"scene": self.scene, "view": "state"}
        self.phase = "resumed" if self.version is not None else "live"
        if self.version is not None:
            parameters["sinceVersion"] = self.version
            parameters["epoch"] = self.epoch
        end = time.monotonic() + deadline
        try:
            connection = VarlinkConnection(socket_path, timeout=10.0)
            connection.send("io.navd.Subscribe", parameters, more=True)
            while not stop.is_set() and time.monotonic() < end:
                if until_version is not None and self.version is not None and self.version >= until_version:
                    break
                try:
                    reply = connection.recv(timeout=0.2)
                except ReplyTimeout:
                    continue
                if "error" in reply:
                    self.problems.append(f"error reply: {reply}")
                    return
                self.apply(reply["parameters"])
        except (ConnectionClosed, OSError):
            return
        finally:
            try:
                connection.close()
            except Exception:  # noqa: BLE001
                pass

    def apply(self, body: dict) -> None:
        kind = body["kind"]
        self.kinds.append(kind)
        if kind == "snapshot":
            self.document, self.version, self.epoch = body["document"], body["version"], body["epoch"]
        elif kind == "update":
            if body["fromVersion"] != self.version:
                self.problems.append(
                    f"{self.phase}: update {body['fromVersion']}->{body['toVersion']} after {self.version} "
                    f"(replies so far: {self.kinds})")
            self.document = jsonpatch.apply_patch(self.document, body["patch"], in_place=True)
            self.version = body["toVersion"]


def setup_scenes(navd: Navd, cycle: int) -> None:
    connection = navd.connect()
    for writer in range(WRITERS):
        connection.call("io.navd.Mutate", {"scene": scene_name(cycle, writer), "ops": [
            {"op": "push", "item": {"id": f"w{writer}", "title": "-1"}}]})
    connection.close()


def check_scene(connection: VarlinkConnection, scene: str, logs: list[WriterLog], history: dict) -> list[str]:
    """The invariants of the module docstring for one scene; returns the problems found."""
    problems = []
    reply = connection.call("io.navd.GetState", {"scene": scene})
    state, version = reply["state"], reply["version"]
    defined = {item["id"] for item in state["barButtonItems"]}
    titles = {item["id"]: item.get("title") for item in state["navigationBar"]["items"]}
    total = 0
    for log in logs:
        mine = sorted(int(i.split("-")[1]) for i in defined if i.startswith(f"w{log.writer}-"))
        n = len(mine)
        total += n
        if mine != list(range(n)):
            problems.append(f"{scene} writer {log.writer}: defined {mine[:5]}… has a hole (lost or out of order)")
        if n < len(log.acked):
            problems.append(f"{scene} writer {log.writer}: {len(log.acked)} acknowledged, only {n} present")
        if n > log.sent:
            problems.append(f"{scene} writer {log.writer}: {n} present but only {log.sent} sent")
        if titles.get(f"w{log.writer}") != str(n - 1):
            problems.append(
                f"{scene} writer {log.writer}: title {titles.get(f'w{log.writer}')!r} but {n} items: half a mutation")
    if version != SETUP_VERSIONS + total:
        problems.append(f"{scene}: version {version} but {SETUP_VERSIONS} + {total} mutations (a version reused or lost)")
    for log in logs:
        for k, acked_version in enumerate(log.acked):
            owner = history.setdefault((scene, acked_version), (log.writer, k))
            if owner != (log.writer, k):
                problems.append(f"{scene}: version {acked_version} acknowledged twice: to {owner} and {(log.writer, k)}")
    return problems


def test_kill_at_random_moments_loses_nothing_acknowledged():
    seed = seed_from_env(8_2026)
    rng = random.Random(seed)
    state_dir = tempfile.mkdtemp(prefix="navd-crash-state-")
    all_logs: dict[str, list[WriterLog]] = {}
    history: dict = {}
    followers: list[ResumingFollower] = []
    problems: list[str] = []
    navd = Navd(["--state-dir", state_dir], name="crash").start()
    try:
        for cycle in range(KILLS):
            setup_scenes(navd, cycle)
            logs = [WriterLog(writer, scene_name(cycle, writer)) for writer in range(WRITERS)]
            for log in logs:
                all_logs.setdefault(log.scene, []).append(log)
            follower = ResumingFollower(scene_name(cycle, 0))
            followers.append(follower)
            stop = threading.Event()
            threads = [threading.Thread(target=write_pipelined, args=(navd.socket_path, log, stop), daemon=True)
                       for log in logs]
            threads.append(threading.Thread(target=follower.follow, args=(navd.socket_path, stop), daemon=True))
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(0.02, 0.6 if LONG else 0.3))
            os.kill(navd.pid, signal.SIGKILL)
            navd.process.wait(10)
            stop.set()
            for thread in threads:
                thread.join(DEFAULT_TIMEOUT)
                assert not thread.is_alive(), "a writer or follower did not stop after the kill"
            problems += [f"cycle {cycle}: {error}" for log in logs for error in log.errors]

            navd.cleanup()
            navd = Navd(["--state-dir", state_dir], name="crash").start()
            connection = navd.connect()
            for scene, scene_logs in all_logs.items():
                problems += [f"after kill {cycle + 1}: {p}" for p in check_scene(connection, scene, scene_logs, history)]
            connection.close()
            assert not problems, f"seed={seed}: " + "\n".join(problems[:20])

        # Every follower resumes from where the crash left it and converges to GetState.
        connection = navd.connect()
        resumed_with = {"update": 0, "snapshot": 0}
        for follower in followers:
            if follower.version is None:
                continue  # killed before its snapshot arrived
            final = connection.call("io.navd.GetState", {"scene": follower.scene})
            seen = len(follower.kinds)
            behind = follower.version < final["version"]
            follower.follow(navd.socket_path, threading.Event(), until_version=final["version"])
            if behind and len(follower.kinds) > seen:
                resumed_with[follower.kinds[seen]] += 1
            assert not follower.problems, f"seed={seed}: {follower.scene}: {follower.problems}"
            assert follower.version == final["version"], f"seed={seed}: {follower.scene} stopped at {follower.version}"
            assert follower.document == final["state"], f"seed={seed}: {follower.scene}: resumed document differs"
        connection.close()
        acknowledged = sum(len(log.acked) for logs in all_logs.values() for log in logs)
        print(f"{KILLS} kills, {acknowledged} acknowledged mutations, all present after each restart; "
              f"resumes across a restart: {resumed_with['update']} with patches, {resumed_with['snapshot']} "
              "with a snapshot (the stored log no longer held their version)")
        assert acknowledged > 0, "no mutation was acknowledged in any cycle: the kills came too early to test anything"
        navd = resume_behind_across_a_kill(navd, state_dir, seed)
    finally:
        navd.cleanup()
        shutil.rmtree(state_dir, ignore_errors=True)


def resume_behind_across_a_kill(navd: Navd, state_dir: str, seed: int) -> Navd:
    """A subscriber that saw version 1 of a new scene (its first snapshot is stored there), then
    missed five acknowledged versions, resumes after a SIGKILL with patches from version 1."""
    scene = "resume-behind"
    connection = navd.connect()
    connection.call("io.navd.Mutate", {"scene": scene, "ops": [{"op": "push", "item": {"id": "w0", "title": "-1"}}]})
    follower = ResumingFollower(scene)
    follower.follow(navd.socket_path, threading.Event(), until_version=1)
    assert follower.version == 1 and follower.kinds == ["snapshot"], f"seed={seed}: {follower.kinds}"
    for k in range(5):
        connection.call("io.navd.Mutate", {"scene": scene, **mutation(0, k)})
    connection.close()
    os.kill(navd.pid, signal.SIGKILL)
    navd.process.wait(10)
    navd.cleanup()
    navd = Navd(["--state-dir", state_dir], name="crash").start()
    final = navd.connect().call("io.navd.GetState", {"scene": scene})
    assert final["version"] == 6, f"seed={seed}: {final['version']}"
    follower.follow(navd.socket_path, threading.Event(), until_version=6)
    assert not follower.problems, f"seed={seed}: {follower.problems}"
    assert follower.kinds[1] == "update", (
        f"seed={seed}: resumed with {follower.kinds[1:]}, not patches: the epoch or the stored log was not kept")
    assert follower.version == 6 and follower.document == final["state"], f"seed={seed}: {follower.kinds}"
    return navd
