"""A connect refused by the socket's permissions (EACCES) says what is in the way and what
to do (issue 26): the socket's owner, group and mode and the group to join, that only its
owner can connect when its group may not write it, or which directory on the way may not be
searched — from navctl (exit 3, never "start navd") and from navd's own probe of an existing
socket. Clients run as a throw-away user under `setpriv --reuid/--regid --clear-groups`
(root in CI), against a navd run as root whose socket is given a group and mode here."""

from __future__ import annotations

import grp
import json
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from navd_fixture import REPO_ROOT, Navd, navd_binary

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("useradd"),
    reason="needs root, setpriv and useradd to connect as another user")

NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO_ROOT / ".build" / "debug" / "navctl"))
USER = "navde2e-perm"
GROUP = "navde2e-sock"


@pytest.fixture(scope="module")
def accounts():
    """(uid, its own gid, the socket group's gid): a system user and a group it is not in."""
    subprocess.run(["groupadd", "--system", GROUP], check=True, capture_output=True)
    try:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group",
                        USER], check=True, capture_output=True)
        try:
            entry = pwd.getpwnam(USER)
            yield entry.pw_uid, entry.pw_gid, grp.getgrnam(GROUP).gr_gid
        finally:
            subprocess.run(["userdel", USER], capture_output=True)
            subprocess.run(["groupdel", USER], capture_output=True)
    finally:
        subprocess.run(["groupdel", GROUP], capture_output=True)


@pytest.fixture
def navd(accounts):
    """navd as root; its socket root:GROUP 0660 in a directory anyone may search (0711)."""
    server = Navd(name="sockperm").start()
    try:
        os.chmod(server.directory, 0o711)
        os.chown(server.socket_path, 0, accounts[2])
        os.chmod(server.socket_path, 0o660)
        yield server
    finally:
        server.cleanup()


def as_user(uid: int, gid: int, *, groups: tuple[int, ...] = ()) -> list[str]:
    extra = [f"--groups={','.join(map(str, groups))}"] if groups else ["--clear-groups"]
    return ["setpriv", f"--reuid={uid}", f"--regid={gid}", *extra, "--"]


def navctl_as(accounts, navd: Navd, *args: str, groups: tuple[int, ...] = ()) -> subprocess.CompletedProcess:
    uid, gid, _ = accounts
    env = {k: v for k, v in os.environ.items() if k != "NAVD_SOCKET"}
    return subprocess.run([*as_user(uid, gid, groups=groups), str(NAVCTL), "--socket", navd.socket_path, *args],
                          capture_output=True, text=True, timeout=30, env=env)


def test_outside_the_socket_group_navctl_names_owner_group_mode_and_the_group_to_join(accounts, navd):
    result = navctl_as(accounts, navd, "get")
    assert result.returncode == 3, result
    assert (f"navctl: permission denied connecting to {navd.socket_path} (owner root, group {GROUP}, mode 0660): "
            f"you are not in its group {GROUP}\n") in result.stderr, result.stderr
    assert f"To fix: add yourself to group {GROUP} (`sudo adduser $USER {GROUP}`) and log in again." in result.stderr
    assert "Start it" not in result.stderr, "navd is running: starting it is not the advice"

    report = json.loads(navctl_as(accounts, navd, "--json", "get").stderr)
    assert report["error"] == "navctl.Unreachable"
    assert report["parameters"]["errno"] == 13 and report["parameters"]["socket"] == navd.socket_path
    assert f"mode 0660): you are not in its group {GROUP}" in report["parameters"]["message"]
    assert report["parameters"]["hint"].startswith(f"add yourself to group {GROUP}")


def test_a_member_by_the_database_whose_login_predates_it_is_told_to_log_in_again(accounts, navd):
    subprocess.run(["gpasswd", "--add", USER, GROUP], check=True, capture_output=True)
    try:
        result = navctl_as(accounts, navd, "get")  # --clear-groups: this "login" has not got the group
    finally:
        subprocess.run(["gpasswd", "--delete", USER, GROUP], check=True, capture_output=True)
    assert result.returncode == 3, result
    assert (f"you are in group {GROUP} in the group database, but this login began before you were added: "
            f"log in again (or run `newgrp {GROUP}`)") in result.stderr, result.stderr


def test_with_the_group_the_socket_lets_the_client_in(accounts, navd):
    result = navctl_as(accounts, navd, "scenes", groups=(accounts[2],))
    assert result.returncode != 3, result  # past the socket: navd's policy decides now
    assert "permission denied connecting" not in result.stderr, result.stderr


def test_a_socket_its_group_may_not_write_says_only_its_owner_can_connect(accounts, navd):
    os.chmod(navd.socket_path, 0o600)
    for groups in ((), (accounts[2],)):
        result = navctl_as(accounts, navd, "get", groups=groups)
        assert result.returncode == 3, result
        why = f"its group {GROUP} has no write permission" if groups else "neither its group nor others may write it"
        assert (f"{navd.socket_path} (owner root, group {GROUP}, mode 0600): only its owner root can connect "
                f"({why})") in result.stderr, result.stderr
        assert "To fix: connect as root, or ask navd's administrator to share the socket with a group" \
            in result.stderr, result.stderr
        assert "adduser" not in result.stderr, "joining the group would not help"


def test_a_directory_on_the_way_that_may_not_be_searched_is_named(accounts, navd):
    os.chmod(navd.directory, 0o700)
    result = navctl_as(accounts, navd, "get")
    assert result.returncode == 3, result
    assert (f"permission denied connecting to {navd.socket_path}: the directory {navd.directory} "
            "(owner root, group root, mode 0700) does not let you search it") in result.stderr, result.stderr
    assert "To fix: only its owner root (or root) can reach the socket in it" in result.stderr, result.stderr


def test_navd_refused_probing_an_existing_socket_says_why_and_to_choose_another_path(accounts, navd):
    """navd, run as the user on the root navd's socket path, cannot tell whether a server
    listens there: it says why (owner, group, mode) and to give another --socket."""
    uid, gid, _ = accounts
    state = Path(tempfile.mkdtemp(prefix="navd-e2e-sockperm-state-"))
    try:
        os.chown(state, uid, gid)
        env = {k: v for k, v in os.environ.items() if k not in ("NAVD_SOCKET", "LISTEN_FDS", "NOTIFY_SOCKET")}
        result = subprocess.run(
            [*as_user(uid, gid), str(navd_binary()), "--socket", navd.socket_path, "--state-dir", str(state)],
            capture_output=True, text=True, timeout=30, env=env)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    assert result.returncode == 1, result
    assert (f"permission denied connecting to {navd.socket_path} (owner root, group {GROUP}, mode 0660): "
            f"you are not in its group {GROUP}; navd cannot tell whether a server listens there") in result.stderr, \
        result.stderr
    assert "--socket PATH (or NAVD_SOCKET)" in result.stderr, result.stderr
    assert os.path.exists(navd.socket_path) and navd.alive(), "the root navd and its socket are untouched"


def test_navd_needs_only_search_permission_on_its_directories_and_their_parents(accounts):
    """A socket and a state directory of the user's own, inside a root directory the user
    may search but not list (0711, as a home or a runtime directory often is): navd opens
    both with O_PATH where it cannot read them, starts, and serves; it used to stop with
    "open failed: Permission denied" naming the parent."""
    uid, gid, _ = accounts
    outer = Path(tempfile.mkdtemp(prefix="navd-e2e-search-only-"))
    server = None
    try:
        os.chmod(outer, 0o711)
        own = outer / "own"
        own.mkdir(mode=0o700)
        os.chown(own, uid, gid)
        socket_path = own / "navd.sock"
        env = {k: v for k, v in os.environ.items() if k not in ("NAVD_SOCKET", "LISTEN_FDS", "NOTIFY_SOCKET")}
        server = subprocess.Popen(
            [*as_user(uid, gid), str(navd_binary()), "--socket", str(socket_path), "--state-dir", str(own / "state")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        result = None
        for _ in range(100):
            if server.poll() is not None:
                break
            result = subprocess.run([*as_user(uid, gid), str(NAVCTL), "--socket", str(socket_path), "--scene", "main",
                                     "push", "Searched"], capture_output=True, text=True, timeout=30, env=env)
            if result.returncode != 3:  # 3: not reachable yet
                break
            subprocess.run(["sleep", "0.1"])
        assert server.poll() is None, server.communicate(timeout=10)[1]
        assert result is not None and result.returncode == 0, result
        assert (own / "state" / "navd.db").exists()
    finally:
        if server is not None and server.poll() is None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(outer, ignore_errors=True)
