"""Issue 26, code side: where the state directory is (the XDG default, absolute paths),
navctl refusing to create one it was not told about, the modes of what it writes, and
root restoring into a directory another user owns — the system service's recovery
recipe as navd(8) and STORAGE.md §1 and §4 write it (Protocol/STORAGE.md)."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from navd_fixture import REPO_ROOT, Navd, VarlinkConnection, navd_binary

NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO_ROOT / ".build" / "debug" / "navctl"))
# A fixed system user, made when missing and removed again by the test that made it.
OWNER = "navd-e2e-owner"
EXPORT = {"format": "navd-export", "formatVersion": 1, "scenes": []}


@pytest.fixture
def workdir():
    path = Path(tempfile.mkdtemp(prefix="navd-e2e-statedir-"))
    path.chmod(0o755)  # the test user must reach what is below it, as navd must
    yield path
    shutil.rmtree(path, ignore_errors=True)


def bare_environment(home: Path) -> dict[str, str]:
    """No STATE_DIRECTORY, no XDG_STATE_HOME: the last default, $HOME/.local/state/navd."""
    env = {k: v for k, v in os.environ.items() if k not in ("STATE_DIRECTORY", "XDG_STATE_HOME", "NAVD_SOCKET")}
    env["HOME"] = str(home)
    return env


def navctl(*args: str, env: dict | None = None, cwd: Path | None = None, stdin: str | None = None,
           umask: int | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(NAVCTL), *args], input=stdin, capture_output=True, text=True, timeout=30, env=env,
                          cwd=cwd, preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)


def tree(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


@pytest.mark.parametrize("command", ["import", "export"])
def test_navctl_without_state_dir_refuses_a_missing_default_and_creates_nothing(workdir, command):
    home = workdir / "home"
    home.mkdir()
    (workdir / "backup.json").write_text(json.dumps(EXPORT))
    before = tree(workdir)
    args = [command, str(workdir / "backup.json")] if command == "import" else [command]
    result = navctl(*args, env=bare_environment(home), cwd=workdir)
    assert result.returncode == 1, result
    default = f"{home}/.local/state/navd"
    assert f"navctl: {command}: no state directory at {default}" in result.stderr, result.stderr
    assert "$HOME/.local/state/navd, as XDG_STATE_HOME is not set" in result.stderr
    assert "--state-dir DIR" in result.stderr
    assert "imported" not in result.stdout
    assert tree(workdir) == before, "nothing created: no ./.navd, no ~/.local/state"


def test_navctl_import_with_state_dir_creates_it_and_its_files_are_mode_0600(workdir):
    state = workdir / "new" / "state"
    result = navctl("import", "--state-dir", str(state), "-", stdin=json.dumps(EXPORT), umask=0o022)
    assert result.returncode == 0, result
    assert f"into {state}/navd.db" in result.stdout
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    files = [p for p in state.iterdir() if p.name.startswith("navd.")]
    assert {p.name for p in files} >= {"navd.db", "navd.lock"}
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, f"{path.name} is {oct(path.stat().st_mode)}"


def test_navd_and_navctl_default_to_home_local_state_and_print_absolute_paths(workdir):
    """navd without --state-dir and without XDG_STATE_HOME: $HOME/.local/state/navd, the
    same directory navctl then exports from; a relative --state-dir is logged absolute."""
    home = workdir / "home"
    home.mkdir()
    env = bare_environment(home)
    env["XDG_STATE_HOME"] = ""  # the fixture sets one; empty counts as unset
    with Navd(env=env, name="xdg-default") as navd:
        connection = navd.connect()
        connection.call("io.navd.Mutate", {"scene": "home", "ops": [{"op": "push", "item": {"id": "a", "title": "A"}}]})
        connection.close()
        navd.stop()  # the log is complete once navd has exited
        assert f"state in {home}/.local/state/navd " in navd.log(), navd.log()
    assert (home / ".local" / "state" / "navd" / "navd.db").exists()
    exported = navctl("export", env=bare_environment(home), cwd=workdir)
    assert exported.returncode == 0, exported
    assert [s["name"] for s in json.loads(exported.stdout)["scenes"]] == ["home"]

    relative = Navd(["--state-dir", "relative/state"], name="relative")
    with relative:
        relative.stop()
        assert f"state in {relative.directory}/relative/state " in relative.log(), relative.log()


# --- root restoring into a directory owned by the user navd runs as -------------------------

needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("useradd"),
    reason="needs root, setpriv and useradd to act as another user")


@pytest.fixture
def owner():
    """The uid and gid of a system user standing in for `navd` (made if missing, removed if made here)."""
    made = False
    try:
        pwd.getpwnam(OWNER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", OWNER],
                       check=True, capture_output=True, timeout=30)
        made = True
    entry = pwd.getpwnam(OWNER)
    yield entry.pw_uid, entry.pw_gid
    if made:
        subprocess.run(["userdel", OWNER], capture_output=True, timeout=30)


def as_owner(uid: int, gid: int) -> list[str]:
    return ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--"]


class OwnedNavd:
    """navd run as the test user on its own state directory and socket, like navd.service."""

    def __init__(self, identity: tuple[int, int], state: Path, runtime: Path):
        self.socket = runtime / "navd.sock"
        self.stderr = runtime / "stderr.log"
        env = {k: v for k, v in os.environ.items() if k not in ("NAVD_SOCKET", "NOTIFY_SOCKET", "LISTEN_FDS")}
        with open(self.stderr, "wb") as stderr:
            self.process = subprocess.Popen(
                [*as_owner(*identity), str(navd_binary()), "--socket", str(self.socket), "--state-dir", str(state)],
                env=env, stdout=subprocess.DEVNULL, stderr=stderr, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"navd exited {self.process.returncode}: {self.stderr.read_text()}")
            try:
                probe = socket.socket(socket.AF_UNIX)
                probe.connect(str(self.socket))
                probe.close()
                return
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise AssertionError(f"navd did not listen: {self.stderr.read_text()}")

    def call(self, method: str, parameters: dict) -> dict:
        connection = VarlinkConnection(str(self.socket))
        try:
            return connection.call(method, parameters)
        finally:
            connection.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(15)


@needs_root
def test_root_restores_the_service_state_by_the_documented_recipe(workdir, owner):
    uid, gid = owner
    state = workdir / "lib" / "navd"  # /var/lib/navd of navd.service: the user's, 0700
    runtime = workdir / "run"
    for directory in (state, runtime):
        directory.mkdir(parents=True)
        os.chown(directory, uid, gid)
        directory.chmod(0o700)
    navd = OwnedNavd(owner, state, runtime)
    try:
        navd.call("io.navd.Mutate", {"scene": "main", "ops": [{"op": "push", "item": {"id": "a", "title": "A"}}]})
    finally:
        navd.stop()

    # navd(8), STATE: export, move the database aside, import, start — all as root.
    backup = workdir / "navd-backup.json"
    exported = navctl("export", "--state-dir", str(state))
    assert exported.returncode == 0, exported
    backup.write_text(exported.stdout)
    backup.chmod(0o600)  # root's own file: read before navctl becomes the directory's owner
    recipe = (f'cd {state} && for f in navd.db navd.db-wal navd.db-shm navd.redo.*; '
              'do [ ! -e "$f" ] || mv "$f" "$f.damaged"; done')
    subprocess.run(["sh", "-c", recipe], check=True, timeout=30)
    assert not (state / "navd.db").exists()
    imported = navctl("import", "--state-dir", str(state), str(backup), umask=0o022)
    assert imported.returncode == 0, imported
    assert f"as {OWNER}:" in imported.stdout, imported.stdout

    for path in state.iterdir():
        if path.name.endswith(".damaged"):
            continue
        info = path.lstat()
        assert (info.st_uid, info.st_gid) == (uid, gid), f"{path.name} belongs to {info.st_uid}:{info.st_gid}"
        assert stat.S_IMODE(info.st_mode) == 0o600, f"{path.name} is {oct(info.st_mode)}"
    info = state.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (uid, gid, 0o700), "the directory is unchanged"

    navd = OwnedNavd(owner, state, runtime)
    try:
        reply = navd.call("io.navd.GetState", {"scene": "main"})
        assert [item["id"] for item in reply["state"]["navigationBar"]["items"]] == ["a"]
    finally:
        navd.stop()


@needs_root
def test_a_non_root_navd_without_xdg_runtime_dir_says_to_give_socket(workdir, owner):
    uid, gid = owner
    state = workdir / "state"
    state.mkdir()
    os.chown(state, uid, gid)
    state.chmod(0o700)
    env = {k: v for k, v in os.environ.items() if k not in ("NAVD_SOCKET", "XDG_RUNTIME_DIR", "LISTEN_FDS")}
    result = subprocess.run([*as_owner(uid, gid), str(navd_binary()), "--state-dir", str(state)],
                            capture_output=True, text=True, timeout=30, env=env)
    if result.returncode == 0 or "another navd is already listening" in result.stderr:
        pytest.skip("a navd serves /run/navd/navd.sock on this machine")
    assert result.returncode == 1, result
    assert "/run/navd/navd.sock" in result.stderr or "/run/navd" in result.stderr, result.stderr
    assert "XDG_RUNTIME_DIR is not set" in result.stderr and "--socket PATH" in result.stderr, result.stderr
