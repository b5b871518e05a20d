"""The state directory's files as Protocol/STORAGE.md says (issue 28, "File modes as
documented, and an export that writes nothing"): every file navd and `navctl import` make
is mode 0600 whatever the umask (§1), and `navctl export` changes no file (§5) — not after
a clean stop, not after a kill -9 that left an un-checkpointed WAL and its index, not when
the index is missing — and still exports every acknowledged version."""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from navd_fixture import REPO_ROOT, Navd, encode_call, navd_binary

NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO_ROOT / ".build" / "debug" / "navctl"))


@pytest.fixture
def state_dir():
    path = Path(tempfile.mkdtemp(prefix="navd-e2e-files-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def navctl(*args: str, stdin: str | None = None, umask: int | None = None,
           env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(NAVCTL), *args], input=stdin, capture_output=True, text=True, timeout=60,
                          env=env, preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)


def snapshot(directory: Path, change_times: bool = os.geteuid() != 0) -> dict[str, tuple]:
    """Every entry's size, owner, mode, modification time and content hash, and the directory's
    times. The change time too when navctl does not run as root: SQLite run as root re-asserts
    the owner of the -wal and -shm it opens (fchown to the owner they have), which sets only that."""
    entries: dict[str, tuple] = {}
    for path in sorted(directory.iterdir()):
        info = path.lstat()
        entries[path.name] = (info.st_size, info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode), info.st_mtime_ns,
                              info.st_ctime_ns if change_times else None,
                              hashlib.sha256(path.read_bytes()).hexdigest())
    info = directory.stat()
    entries["."] = (info.st_mtime_ns, info.st_ctime_ns)
    return entries


def pipelined(navd: Navd, scene: str, count: int) -> int:
    """`count` title changes after one push, sent at once; returns the last acknowledged version."""
    connection = navd.connect()
    try:
        connection.call("io.navd.Mutate", {"scene": scene, "ops": [{"op": "push", "item": {"id": "top", "title": "t"}}]})
        connection.send_raw(b"".join(
            encode_call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "updateNavigationItem", "item": "top", "set": {"title": f"title {i}"}}]})
            for i in range(count)))
        return [connection.recv()["parameters"]["version"] for _ in range(count)][-1]
    finally:
        connection.close()


def killed_with_writes(state_dir: Path, durability: str) -> dict[str, int]:
    """A navd killed with SIGKILL once the WAL holds transactions (with --durability normal, once
    the redo log's applier has written some there): scene -> last version acknowledged."""
    navd = Navd(["--state-dir", str(state_dir), "--durability", durability], name="files")
    navd.start()
    try:
        versions = {scene: pipelined(navd, scene, 40) for scene in ("main", "side")}
        wal = state_dir / "navd.db-wal"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (not wal.exists() or wal.stat().st_size <= 32):
            time.sleep(0.005)
        os.kill(navd.pid, signal.SIGKILL)
        navd.process.wait(10)
    finally:
        navd.cleanup()
    return versions


def exported_versions(state_dir: Path) -> dict[str, tuple[int, str]]:
    result = navctl("export", "--state-dir", str(state_dir))
    assert result.returncode == 0, result.stderr
    return {scene["name"]: (scene["version"], scene["state"]["navigationBar"]["items"][-1]["title"])
            for scene in json.loads(result.stdout)["scenes"]}


@pytest.mark.parametrize("durability", ["normal", "full"])
def test_export_after_a_kill_changes_no_file_and_holds_every_acknowledged_version(state_dir, durability):
    """STORAGE.md §5: "it changes no file". After SIGKILL the WAL holds transactions no
    checkpoint wrote (with --durability full, everything acknowledged), and no connection
    holds its index: a plain read-only open would rebuild navd.db-shm."""
    versions = killed_with_writes(state_dir, durability)
    names = {path.name for path in state_dir.iterdir()}
    assert {"navd.db", "navd.db-wal", "navd.db-shm"} <= names, names
    assert (state_dir / "navd.db-wal").stat().st_size > 0, "the kill left a WAL to read"
    before = snapshot(state_dir)
    for _ in range(2):
        assert exported_versions(state_dir) == {scene: (version, "title 39") for scene, version in versions.items()}
        assert snapshot(state_dir) == before, "navctl export changed a file of the state directory"


def test_export_with_a_wal_but_no_index_reads_the_wal_from_a_private_copy(state_dir):
    """A WAL whose navd.db-shm is gone (not copied with it, removed by hand): SQLite cannot read
    it without making an index next to it, so export reads a private copy and removes it."""
    versions = killed_with_writes(state_dir, "full")
    (state_dir / "navd.db-shm").unlink()
    before = snapshot(state_dir)
    temporary = Path(tempfile.mkdtemp(prefix="navd-e2e-tmpdir-"))
    try:
        env = dict(os.environ, TMPDIR=str(temporary))
        result = navctl("export", "--state-dir", str(state_dir), env=env)
        assert result.returncode == 0, result.stderr
        scenes = {scene["name"]: scene["version"] for scene in json.loads(result.stdout)["scenes"]}
        assert scenes == versions
        assert list(temporary.iterdir()) == [], "the private copy is removed"
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    assert snapshot(state_dir) == before


def test_export_after_a_clean_stop_creates_no_wal_or_index(state_dir):
    with Navd(["--state-dir", str(state_dir)], name="files") as navd:
        last = pipelined(navd, "main", 5)
        navd.stop()
    assert not (state_dir / "navd.db-wal").exists() and not (state_dir / "navd.db-shm").exists()
    before = snapshot(state_dir)
    assert exported_versions(state_dir) == {"main": (last, "title 4")}
    assert snapshot(state_dir) == before, "an export of a stopped navd's database made or changed a file"


def assert_private(state_dir: Path) -> None:
    for path in state_dir.iterdir():
        assert stat.S_IMODE(path.lstat().st_mode) == 0o600, f"{path.name} is {oct(path.lstat().st_mode)}"


@pytest.mark.parametrize("umask", [0o000, 0o022])
def test_every_file_navd_and_import_make_is_mode_0600(state_dir, umask):
    """STORAGE.md §1: navd.db 0600 "whether navd or navctl import made it", and so every
    file beside it: -wal, -shm, the redo log, navd.run, navd.reserve, navd.lock."""
    navd = Navd(["--state-dir", str(state_dir)], name="files")
    previous = os.umask(umask)  # navd inherits it
    try:
        navd.start()
    finally:
        os.umask(previous)
    try:
        pipelined(navd, "main", 5)
        names = {path.name for path in state_dir.iterdir()}
        assert {"navd.db", "navd.db-wal", "navd.db-shm", "navd.run", "navd.lock", "navd.reserve"} <= names, names
        assert any(name.startswith("navd.redo.") for name in names), names
        assert_private(state_dir)
        os.kill(navd.pid, signal.SIGKILL)
        navd.process.wait(10)
    finally:
        navd.cleanup()
    exported = navctl("export", "--state-dir", str(state_dir))
    assert exported.returncode == 0, exported.stderr

    # Into the killed navd's directory (import writes its redo log into the database first),
    # and into a new one.
    target = state_dir.parent / (state_dir.name + "-new")
    try:
        for directory in (state_dir, target):
            imported = navctl("import", "--state-dir", str(directory), "-", stdin=exported.stdout, umask=umask)
            assert imported.returncode == 0, imported.stderr
            assert stat.S_IMODE(directory.stat().st_mode) == 0o700
            assert (directory / "navd.db").exists()
            assert_private(directory)
    finally:
        shutil.rmtree(target, ignore_errors=True)


OWNER = "navd-e2e-files"


@pytest.fixture
def owner():
    """A system user for navd and navctl (made if missing, removed if made here)."""
    made = False
    try:
        pwd.getpwnam(OWNER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group",
                        OWNER], check=True, capture_output=True, timeout=30)
        made = True
    entry = pwd.getpwnam(OWNER)
    yield entry.pw_uid, entry.pw_gid
    if made:
        subprocess.run(["userdel", OWNER], capture_output=True, timeout=30)
        subprocess.run(["groupdel", OWNER], capture_output=True, timeout=30)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("useradd"),
                    reason="needs root, setpriv and useradd to run navd and navctl as another user")
def test_export_by_the_owner_after_a_kill_changes_not_even_a_change_time(state_dir, owner):
    """Not root: nothing re-asserts an owner, so every inode is untouched, ctime included."""
    uid, gid = owner
    os.chown(state_dir, uid, gid)
    as_owner = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--"]
    env = {k: v for k, v in os.environ.items() if k not in ("NAVD_SOCKET", "LISTEN_FDS", "NOTIFY_SOCKET")}
    runtime = Path(tempfile.mkdtemp(prefix="navd-e2e-files-run-"))
    os.chown(runtime, uid, gid)
    socket_path = str(runtime / "navd.sock")
    server = subprocess.Popen(
        [*as_owner, str(navd_binary()), "--socket", socket_path, "--state-dir", str(state_dir), "--durability", "full"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 15
        while True:  # exit 3 until navd listens
            assert server.poll() is None and time.monotonic() < deadline, server.stderr.read()
            pushed = subprocess.run([str(NAVCTL), "--socket", socket_path, "push", "Home"], capture_output=True,
                                    text=True, timeout=30, env=env)
            if pushed.returncode != 3:
                break
            time.sleep(0.05)
        assert pushed.returncode == 0, pushed
        server.kill()
        server.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        shutil.rmtree(runtime, ignore_errors=True)
    assert (state_dir / "navd.db-wal").stat().st_size > 32, "the kill left a WAL to read"
    before = snapshot(state_dir, change_times=True)
    result = subprocess.run([*as_owner, str(NAVCTL), "export", "--state-dir", str(state_dir)], capture_output=True,
                            text=True, timeout=60, env=env)
    assert result.returncode == 0, result
    assert [scene["name"] for scene in json.loads(result.stdout)["scenes"]] == ["main"]
    assert snapshot(state_dir, change_times=True) == before
