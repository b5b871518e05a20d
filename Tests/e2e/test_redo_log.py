"""The redo log of --durability normal against a real navd (Protocol/STORAGE.md §2, §4, §5):
a kill leaves it, the next start replays it, a torn tail is cut and named, a clean stop
removes it, and navctl export sees what it holds while navd runs.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import json
from pathlib import Path

import pytest

from navd_fixture import REPO_ROOT, Navd, encode_call, unwrap

NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO_ROOT / ".build" / "debug" / "navctl"))
PIPELINED = 300


@pytest.fixture
def state_dir():
    path = tempfile.mkdtemp(prefix="navd-e2e-redo-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def redo_files(state_dir: str) -> list[Path]:
    return sorted(Path(state_dir).glob("navd.redo.*"))


def pipelined_titles(navd: Navd, scene: str, count: int) -> int:
    """Sends `count` Mutates at once on one connection (title changes after one push); returns the last version."""
    connection = navd.connect()
    try:
        connection.call("io.navd.Mutate", {"scene": scene, "ops": [{"op": "push", "item": {"id": "top", "title": "t"}}]})
        frames = b"".join(
            encode_call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "updateNavigationItem", "item": "top", "set": {"title": f"title {i}"}}]})
            for i in range(count))
        connection.send_raw(frames)
        versions = [connection.recv()["parameters"]["version"] for _ in range(count)]
        assert versions == sorted(versions) and len(set(versions)) == count
        return versions[-1]
    finally:
        connection.close()


def state_of(navd: Navd, scene: str) -> dict:
    connection = navd.connect()
    try:
        return connection.call("io.navd.GetState", {"scene": scene})
    finally:
        connection.close()


def kill_after_acknowledgements(state_dir: str) -> tuple[int, dict]:
    """Pipelines Mutates, SIGKILLs navd at once after the last reply; returns that version and the state."""
    navd = Navd(["--state-dir", state_dir], name="redo-killed")
    try:
        navd.start()
        last = pipelined_titles(navd, "main", PIPELINED)
        os.kill(navd.pid, signal.SIGKILL)
        navd.process.wait(10)
        # What the acknowledged state was, from the replies: the last title set.
        return last, {"title": f"title {PIPELINED - 1}"}
    finally:
        navd.cleanup()


def applied_sequence(state_dir: str) -> int:
    database = sqlite3.connect(f"file:{state_dir}/navd.db?mode=ro", uri=True)
    try:
        return database.execute("SELECT sequence FROM redo_applied").fetchone()[0]
    finally:
        database.close()


def test_a_kill_leaves_the_redo_log_and_the_next_start_replays_every_acknowledged_group(state_dir):
    last, expected = kill_after_acknowledgements(state_dir)
    assert redo_files(state_dir), "a killed navd leaves its redo log"
    with Navd(["--state-dir", state_dir]) as navd:
        reply = state_of(navd, "main")
        assert reply["version"] == last, "every acknowledged version is back"
        assert reply["state"]["navigationBar"]["items"][-1]["title"] == expected["title"]
        assert "redo log ends" not in navd.log(), navd.log()
        assert all(path.stat().st_size == 0 for path in redo_files(state_dir)), "the start replayed and removed the old log"
    assert redo_files(state_dir) == [], "a clean stop writes the log into the database and removes it"
    assert applied_sequence(state_dir) >= 1


def test_a_torn_tail_is_cut_and_named_and_navd_starts_with_everything_before_it(state_dir):
    last, expected = kill_after_acknowledgements(state_dir)
    newest = redo_files(state_dir)[-1]
    with open(newest, "ab") as log:
        log.write(b"\x20\x00\x00\x00garbage that is no record")
    with Navd(["--state-dir", state_dir]) as navd:
        reply = state_of(navd, "main")
        assert reply["version"] == last
        assert reply["state"]["navigationBar"]["items"][-1]["title"] == expected["title"]
        warning = navd.wait_for_log("redo log ends in")[0]
        assert newest.name in warning and "dropped its last 29 bytes" in warning, warning


def test_a_dropped_tail_starts_a_new_epoch_and_a_resume_from_the_old_one_gets_a_snapshot(state_dir):
    """STORAGE.md §4, "New epochs": the kept versions go on under a new epoch, logged."""
    navd = Navd(["--state-dir", state_dir], name="redo-epoch")
    try:
        navd.start()
        last = pipelined_titles(navd, "main", 20)
        old_epoch = state_of(navd, "main")["epoch"]
        os.kill(navd.pid, signal.SIGKILL)
        navd.process.wait(10)
    finally:
        navd.cleanup()
    with open(redo_files(state_dir)[-1], "ab") as log:
        log.write(b"\x20\x00\x00\x00torn")
    with Navd(["--state-dir", state_dir]) as navd:
        reply = state_of(navd, "main")
        assert reply["version"] == last, "what the database and the log held is kept"
        assert reply["epoch"] != old_epoch
        warning = navd.wait_for_log("started a new epoch")[0]
        assert "1 scene(s)" in warning and "the redo log ends in" in warning, warning
        with navd.connect() as subscriber:
            subscriber.send("io.navd.Subscribe", {
                "scene": "main", "view": "state", "sinceVersion": last - 1, "epoch": old_epoch}, more=True)
            first = unwrap(subscriber.recv())
        assert first["kind"] == "snapshot" and first["epoch"] == reply["epoch"], first


def test_navctl_export_while_navd_runs_holds_the_newest_acknowledged_version(state_dir):
    with Navd(["--state-dir", state_dir]) as navd:
        for round in range(3):
            last = pipelined_titles(navd, f"scene{round}", 50)
            exported = subprocess.run(
                [str(NAVCTL), "export", "--state-dir", state_dir], capture_output=True, text=True, timeout=30)
            assert exported.returncode == 0, exported.stderr
            scenes = {scene["name"]: scene for scene in json.loads(exported.stdout)["scenes"]}
            assert scenes[f"scene{round}"]["version"] == last
            assert scenes[f"scene{round}"]["state"]["navigationBar"]["items"][-1]["title"] == "title 49"
