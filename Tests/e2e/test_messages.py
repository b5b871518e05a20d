"""issue 27 item 12: messages that say what was found. navd refuses a socket path where
something listens, and says "another navd" only when the listener answered as navd;
otherwise it names the listener's pid and uid, the socket file's owner, and that it did
not answer as navd. navctl export on a state directory this user may not read says
permission denied, with the refusing directory's owner and mode, not "no database"."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

from navd_fixture import Navd, navd_binary

REPO = Path(__file__).resolve().parents[2]
NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO / ".build" / "debug" / "navctl"))
OTHER_UID = 47021  # numeric uid with no passwd entry


def start_second(socket_path: str, directory: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_RUNTIME_DIR=str(directory))
    env.pop("NAVD_SOCKET", None)
    return subprocess.run(
        [str(navd_binary()), "--socket", socket_path, "--state-dir", str(directory / "state")],
        cwd=directory, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def test_another_navd_is_named_as_navd_with_its_pid():
    with Navd(name="first") as first:
        directory = Path(tempfile.mkdtemp(prefix="navd-e2e-second-"))
        try:
            result = start_second(first.socket_path, directory)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        assert result.returncode == 1
        assert f"another navd (pid {first.pid}, uid {os.geteuid()}) is already listening on {first.socket_path}" \
            in result.stderr
        assert first.alive()


@pytest.mark.skipif(os.geteuid() != 0, reason="chowns the socket file to another uid: run as root")
def test_another_program_is_not_called_navd():
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-squatter-"))
    path = str(directory / "navd.sock")
    squatter = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        squatter.bind(path)
        squatter.listen(8)  # never accepts, never answers: connects wait in the backlog
        os.chown(path, OTHER_UID, OTHER_UID)
        result = start_second(path, directory)
        assert result.returncode == 1
        assert "another navd" not in result.stderr
        assert (f"{path} is already in use: a program that did not answer as navd "
                f"(pid {os.getpid()}, uid {os.geteuid()}; the socket file is owned by uid {OTHER_UID})") \
            in result.stderr
        assert os.path.exists(path), "navd removed a socket it does not own"
    finally:
        squatter.close()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="runs navctl as another uid with setpriv: run as root")
def test_export_of_an_unreadable_state_directory_says_permission_denied():
    base = Path(tempfile.mkdtemp(prefix="navd-e2e-unreadable-"))
    try:
        os.chmod(base, 0o755)
        state = base / "state"
        state.mkdir(mode=0o700)
        (state / "navd.db").write_bytes(b"")
        as_other = ["setpriv", f"--reuid={OTHER_UID}", f"--regid={OTHER_UID}", "--clear-groups"]
        result = subprocess.run([*as_other, str(NAVCTL), "export", "--state-dir", str(state)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode != 0
        assert "no navd database" not in result.stderr
        assert (f"cannot read the navd database at {state}/navd.db: permission denied ({state} is owned by "
                f"uid 0 gid 0 with mode 0700, and navctl runs as uid {OTHER_UID})") in result.stderr
        # And where there really is none, it says so.
        empty = base / "empty"
        empty.mkdir(mode=0o755)
        missing = subprocess.run([*as_other, str(NAVCTL), "export", "--state-dir", str(empty)],
                                 capture_output=True, text=True, timeout=60)
        assert f"no navd database at {empty}/navd.db" in missing.stderr
    finally:
        shutil.rmtree(base, ignore_errors=True)
