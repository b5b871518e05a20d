"""Issue 8, store part, against a real navd: the state directory and its lock,
restarts, refusal of damaged or newer databases, navctl export/import, and a
full disk (Protocol/STORAGE.md).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from navd_fixture import REPO_ROOT, Navd, NavdError, VarlinkError

NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO_ROOT / ".build" / "debug" / "navctl"))


@pytest.fixture
def state_dir():
    path = tempfile.mkdtemp(prefix="navd-e2e-state-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def navctl(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(NAVCTL), *args], input=stdin, capture_output=True, text=True, timeout=30)


def push(navd: Navd, scene: str, item: str) -> int:
    connection = navd.connect()
    try:
        return connection.call("io.navd.Mutate", {"scene": scene, "ops": [
            {"op": "push", "item": {"id": item, "title": item}}]})["version"]
    finally:
        connection.close()


def get_state(navd: Navd, scene: str) -> dict:
    connection = navd.connect()
    try:
        return connection.call("io.navd.GetState", {"scene": scene})
    finally:
        connection.close()


def start_fails(args: list[str]) -> str:
    """Starts navd expecting it to refuse; returns its stderr."""
    navd = Navd(args, name="refused")
    try:
        with pytest.raises(NavdError) as refused:
            navd.start()  # bounded by START_TIMEOUT; a refusing navd exits long before
        assert navd.process.returncode == 1, f"exit {navd.process.returncode}, expected 1"
        return str(refused.value)
    finally:
        navd.cleanup()


def test_acknowledged_state_survives_a_restart(state_dir):
    with Navd(["--state-dir", state_dir]) as navd:
        for item in ["a", "b", "c"]:
            push(navd, "main", item)
        push(navd, "other", "x")
        before = {scene: get_state(navd, scene) for scene in ["main", "other"]}
    with Navd(["--state-dir", state_dir]) as navd:
        for scene, reply in before.items():
            after = get_state(navd, scene)
            assert (after["version"], after["state"]) == (reply["version"], reply["state"])
        assert push(navd, "main", "d") == before["main"]["version"] + 1, "versions continue, never reused"
        assert "2 scene(s) loaded" in navd.log()


def test_epoch_is_kept_across_a_restart(state_dir):
    """PROTOCOL.md "Epochs": the history was loaded, so resuming clients keep their versions."""
    with Navd(["--state-dir", state_dir]) as navd:
        push(navd, "main", "a")
        epoch = get_state(navd, "main")["epoch"]
    with Navd(["--state-dir", state_dir]) as navd:
        assert get_state(navd, "main")["epoch"] == epoch


def test_a_second_navd_on_the_same_state_directory_is_refused(state_dir):
    with Navd(["--state-dir", state_dir]) as navd:
        message = start_fails(["--state-dir", state_dir])
        assert f"another navd (pid {navd.pid}) is using this state directory" in message
        assert "navd.lock" in message


def test_state_directory_checks_name_what_failed(state_dir):
    os.chmod(state_dir, 0o777)
    message = start_fails(["--state-dir", state_dir])
    assert "is writable by its group and others (mode 777, owner " in message, message
    assert "--state-dir DIR" in message and "chmod go-w" in message, message
    os.chmod(state_dir, 0o700)
    link = state_dir + "-link"
    os.symlink(state_dir, link)
    try:
        assert "is a symbolic link" in start_fails(["--state-dir", link])
    finally:
        os.unlink(link)


def test_a_damaged_database_refuses_start_and_says_how_to_recover(state_dir):
    Path(state_dir, "navd.db").write_bytes(b"not a database" * 1000)
    message = start_fails(["--state-dir", state_dir])
    assert "is damaged" in message
    assert "navd will not start on a damaged database" in message
    assert f"mv {state_dir}/navd.db {state_dir}/navd.db.damaged" in message
    assert "navctl export" in message


def test_a_database_from_a_newer_navd_is_refused(state_dir):
    with sqlite3.connect(Path(state_dir, "navd.db")) as database:
        database.execute("PRAGMA user_version = 999")
        database.execute("CREATE TABLE future (x)")
    message = start_fails(["--state-dir", state_dir])
    assert "written by a newer navd (schema version 999" in message


def test_export_and_import(state_dir):
    with Navd(["--state-dir", state_dir]) as navd:
        push(navd, "main", "a")
        push(navd, "main", "b")
        push(navd, "side", "s")
        states = {scene: get_state(navd, scene) for scene in ["main", "side"]}
        exported = navctl("export", "--state-dir", state_dir)
        assert exported.returncode == 0, exported.stderr
        document = json.loads(exported.stdout)
        assert document["format"] == "navd-export" and document["formatVersion"] == 1
        assert [(s["name"], s["version"], s["epoch"], s["state"]) for s in document["scenes"]] == [
            (name, reply["version"], reply["epoch"], reply["state"]) for name, reply in states.items()]
        only = json.loads(navctl("--scene", "side", "export", "--state-dir", state_dir).stdout)
        assert [s["name"] for s in only["scenes"]] == ["side"]
        refused = navctl("import", "--state-dir", state_dir, "-", stdin=exported.stdout)
        assert refused.returncode == 1
        assert f"navd (pid {navd.pid}) is running on {state_dir}" in refused.stderr
        assert "stop navd first" in refused.stderr

    target = tempfile.mkdtemp(prefix="navd-e2e-import-")
    try:
        imported = navctl("import", "--state-dir", target, "-", stdin=exported.stdout)
        assert imported.returncode == 0, imported.stderr
        with Navd(["--state-dir", target]) as navd:
            for name, reply in states.items():
                after = get_state(navd, name)
                assert (after["version"], after["state"]) == (reply["version"], reply["state"])
    finally:
        shutil.rmtree(target, ignore_errors=True)


def test_import_of_a_bad_document_names_the_field_and_changes_nothing(state_dir):
    bad = json.dumps({"format": "navd-export", "formatVersion": 1, "scenes": [
        {"name": "main", "epoch": "e", "version": -3, "state": {}}]})
    result = navctl("import", "--state-dir", state_dir, "-", stdin=bad)
    assert result.returncode == 1
    assert "scenes[0].version" in result.stderr
    assert not Path(state_dir, "navd.db").exists()


def can_mount_tmpfs() -> bool:
    probe = tempfile.mkdtemp(prefix="navd-e2e-mount-probe-")
    try:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], capture_output=True).returncode:
            return False
        subprocess.run(["umount", probe], check=False)
        return True
    finally:
        os.rmdir(probe)


@pytest.mark.skipif(not can_mount_tmpfs(), reason="needs root to mount a 1 MiB tmpfs (mount -t tmpfs)")
def test_disk_full_is_an_error_to_the_writer_and_heals_without_a_restart(state_dir):
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", state_dir], check=True)
    try:
        os.chmod(state_dir, 0o700)
        with Navd(["--state-dir", state_dir]) as navd:
            push(navd, "main", "before")
            before = get_state(navd, "main")
            subscriber = navd.connect()
            subscriber.send("io.navd.Subscribe", {"scene": "main", "view": "state"}, more=True)
            assert subscriber.recv()["parameters"]["kind"] == "snapshot"

            filler = Path(state_dir, "filler")
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                # Twice: on a disk short of space navd retires and checkpoints its own files
                # (STORAGE.md §4, "Disk space"), which frees some; the second fill takes that too.
                for _ in range(2):
                    for chunk in (65536, 4096, 512, 1):
                        try:
                            while os.write(fd, b"\xaa" * chunk) == chunk:
                                pass
                        except OSError:
                            pass
                    time.sleep(0.3)
            finally:
                os.close(fd)
            big = [{"op": "push", "item": {"id": f"big{i}", "title": "b" * 250}} for i in range(40)]
            writer = navd.connect()
            with pytest.raises(VarlinkError) as failed:
                writer.call("io.navd.Mutate", {"scene": "main", "ops": big})
            assert failed.value.name == "io.navd.StorageFailed"
            assert "disk is full" in failed.value.parameters["message"]
            during = get_state(navd, "main")
            assert (during["version"], during["state"]) == (before["version"], before["state"]), "state unchanged"

            filler.unlink()
            version = writer.call("io.navd.Mutate", {"scene": "main", "ops": big})["version"]
            assert version == before["version"] + 1, "the failed version was not used"
            update = subscriber.recv()["parameters"]
            assert (update["kind"], update["fromVersion"], update["toVersion"]) == ("update", before["version"], version)
            writer.close()
            subscriber.close()
    finally:
        subprocess.run(["umount", state_dir], check=False)


def syncs_during(navd: Navd, action) -> int:
    """fsync/fdatasync calls navd makes while `action` runs, counted by strace attached to it."""
    trace = Path(navd.directory, "syncs.trace")
    tracer = subprocess.Popen(
        ["strace", "-f", "-qq", "-e", "trace=fsync,fdatasync", "-o", str(trace), "-p", str(navd.pid)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # strace writes nothing until a traced call; wait until it has stopped navd's threads once.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "TracerPid:\t0" in Path(f"/proc/{navd.pid}/status").read_text():
            time.sleep(0.01)
        assert "TracerPid:\t0" not in Path(f"/proc/{navd.pid}/status").read_text(), "strace did not attach"
        action()
    finally:
        tracer.terminate()
        tracer.wait(timeout=10)
    return sum(1 for line in trace.read_text().splitlines() if "sync(" in line)


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace to count navd's fsyncs (scripts/setup --tests installs it)")
@pytest.mark.parametrize("durability", ["full", "normal"])
def test_durability_full_syncs_the_wal_at_every_commit_and_normal_does_not(state_dir, durability):
    """STORAGE.md §2: with --durability full every acknowledged commit was fsynced, including a group
    of one plain log row (a single INSERT without BEGIN/COMMIT); normal fsyncs only at checkpoints."""
    with Navd(["--state-dir", state_dir, "--durability", durability]) as navd:
        push(navd, "main", "first")  # the scene's first group: several statements
        writer = navd.connect()
        commits = 20

        def one_row_groups():
            for k in range(commits):
                writer.call("io.navd.Mutate", {"scene": "main", "ops": [
                    {"op": "updateNavigationItem", "item": "first", "set": {"title": f"t{k}"}}]})

        syncs = syncs_during(navd, one_row_groups)
        writer.close()
    if durability == "full":
        assert syncs >= commits, f"{syncs} fsyncs for {commits} commits"
    else:
        assert syncs <= 2, f"{syncs} fsyncs for {commits} commits (the WAL header at most, no checkpoint)"


def test_a_retry_after_a_restart_is_answered_from_the_stored_mutation_ids(state_dir):
    """CONFLICTS.md I1–I4 hold across a restart: the remembered ids are stored."""
    mutation = {"scene": "main", "clientId": "app", "mutationId": "m-1", "ops": [
        {"op": "push", "item": {"id": "once", "title": "Once"}}]}
    with Navd(["--state-dir", state_dir]) as navd:
        connection = navd.connect()
        first = connection.call("io.navd.Mutate", mutation)
        connection.close()
    with Navd(["--state-dir", state_dir]) as navd:
        connection = navd.connect()
        retry = connection.call("io.navd.Mutate", mutation)
        assert (retry["version"], retry["replayed"]) == (first["version"], True)
        assert connection.call("io.navd.GetState", {"scene": "main"})["version"] == first["version"]
        connection.close()


def test_a_stored_log_that_does_not_replay_refuses_start_and_says_how_to_recover(state_dir):
    with Navd(["--state-dir", state_dir]) as navd:
        push(navd, "main", "root")
    with sqlite3.connect(Path(state_dir, "navd.db")) as database:
        (version,) = database.execute("SELECT snapshot_version FROM scenes WHERE name = 'main'").fetchone()
        database.execute("INSERT INTO log (scene, version, client, mutation_id, digest, ops) "
                         "VALUES ('main', ?, 'c', NULL, 0, '[{\"op\": \"pop\"}]')", (version + 1,))
    message = start_fails(["--state-dir", state_dir])
    assert "main" in message and f"{version + 1}" in message
    assert f"mv {state_dir}/navd.db" in message
