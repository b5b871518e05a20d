"""navctl as a terminal front end that survives (issue 29): resizes under a pty, navd
restarts under `watch` and `actions` (--follow), navd gone for good (exit 8), idempotent
retries (--mutation-id), the frame limit checked before sending, a timeout of its own, and
errors as JSON with one exit status per class (README "Using it", navctl(1) EXIT STATUS)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import signal
import socket
import struct
import subprocess
import termios
import threading
import time
from pathlib import Path

import pytest

from navd_fixture import Navd

REPO = Path(__file__).resolve().parents[2]
NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO / ".build" / "debug" / "navctl"))


@pytest.fixture(autouse=True)
def _require_navctl():
    if not NAVCTL.exists():
        pytest.fail(f"navctl not built at {NAVCTL}; run `swift build --product navctl` (or set NAVCTL_BIN)")


def env_for(socket_path: str, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NAVCTL_MUTATION_ID", "COLORTERM")}
    env.update(NAVD_SOCKET=socket_path, NO_COLOR="1", LANG="C", LC_ALL="C", **extra)
    return env


def navctl(socket_path: str, *args: str, stdin: str | None = None, timeout: float = 30, **extra: str):
    return subprocess.run([str(NAVCTL), *args], input=stdin, capture_output=True, text=True,
                          env=env_for(socket_path, **extra), timeout=timeout)


def ok(socket_path: str, *args: str) -> str:
    result = navctl(socket_path, *args)
    assert result.returncode == 0, f"navctl {' '.join(args)} exited {result.returncode}: {result.stderr}"
    return result.stdout


class LineReader:
    """Lines of a child's stdout, read on a thread so every wait is bounded."""

    def __init__(self, stream):
        self.lines: list[str] = []
        self.condition = threading.Condition()
        self.thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self.thread.start()

    def _pump(self, stream):
        for line in stream:
            with self.condition:
                self.lines.append(line)
                self.condition.notify_all()

    def wait_for(self, predicate, timeout: float = 30.0):
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                for line in self.lines:
                    if predicate(line):
                        return line
                left = deadline - time.monotonic()
                assert left > 0, f"no matching line within {timeout} s; got {self.lines[-5:]}"
                self.condition.wait(left)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=10)


# -- resizes ---------------------------------------------------------------------------------

def set_size(fd: int, rows: int, columns: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def test_watch_redraws_at_every_new_width_under_a_pty(navd, fresh_scene):
    """One SIGWINCH watcher for the whole run: every resize, not only the first, is drawn at the new width."""
    ok(navd.socket_path, "--scene", fresh_scene, "push", "Inbox", "--id", "inbox")
    master, slave = pty.openpty()
    set_size(slave, 24, 60)
    process = subprocess.Popen([str(NAVCTL), "--scene", fresh_scene, "watch"], stdin=slave, stdout=slave,
                               stderr=subprocess.PIPE, env=env_for(navd.socket_path), start_new_session=True)
    os.close(slave)
    output = bytearray()

    def drawn_at(columns: int, timeout: float = 20.0) -> bool:
        border = ("+" + "-" * (columns - 2) + "+").encode()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    output.extend(os.read(master, 65536))
                except OSError:
                    return False
            frame = output.rsplit(b"\x1b[2J", 1)[-1]
            if any(line.rstrip(b"\r") == border for line in frame.split(b"\n")):
                return True
        return False

    try:
        assert drawn_at(60), output[-500:]
        for columns in (44, 72, 50, 66, 58):
            set_size(master, 24, columns)
            os.kill(process.pid, signal.SIGWINCH)
            assert drawn_at(columns), f"not redrawn at {columns} columns: {bytes(output[-400:])!r}"
            assert process.poll() is None
    finally:
        stop(process)
        os.close(master)


# -- restarts ----------------------------------------------------------------------------------

@pytest.fixture
def restartable():
    daemon = Navd(name="restart")
    daemon.start()
    try:
        yield daemon
    finally:
        daemon.cleanup()


def test_watch_json_follows_navd_through_a_restart(restartable):
    """`watch --json` (follow is the default) keeps going across kill + start on the same socket and
    state dir, resumes with sinceVersion + epoch (updates, not a snapshot) and shows later versions."""
    sock = restartable.socket_path
    ok(sock, "push", "Root", "--id", "root")
    ok(sock, "title", "Before")
    watcher = subprocess.Popen([str(NAVCTL), "watch", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env_for(sock))
    try:
        lines = LineReader(watcher.stdout)
        first = json.loads(lines.wait_for(lambda l: '"snapshot"' in l))
        version = first["version"]
        os.kill(restartable.pid, signal.SIGKILL)
        restartable.process.wait(timeout=10)
        restartable.start()
        ok(sock, "title", "After")
        line = json.loads(lines.wait_for(lambda l: "After" in l))
        assert line["kind"] == "update" and line["fromVersion"] == version and line["toVersion"] == version + 1, line
        assert sum('"snapshot"' in l for l in lines.lines) == 1, "the resume sent a second snapshot"
        # A clean stop (io.navd.ServerStopping) and start again: still following.
        restartable.stop()
        restartable.start()
        ok(sock, "title", "Again")
        lines.wait_for(lambda l: "Again" in l)
        assert watcher.poll() is None
    finally:
        stop(watcher)


def test_actions_follows_navd_through_a_restart(restartable):
    sock = restartable.socket_path
    ok(sock, "item", "compose", "--title", "Compose", "--action", "mail.compose")
    ok(sock, "push", "Inbox", "--id", "inbox", "--right", "compose")
    watcher = subprocess.Popen([str(NAVCTL), "actions", "--json"], stdout=subprocess.PIPE, text=True,
                               env=env_for(sock))
    try:
        lines = LineReader(watcher.stdout)
        lines.wait_for(lambda l: '"watching"' in l)
        restartable.stop()
        restartable.start()
        deadline = time.monotonic() + 30
        while sum('"watching"' in l for l in lines.lines) < 2:
            assert time.monotonic() < deadline, lines.lines
            time.sleep(0.05)
        ok(sock, "activate", "compose")
        line = json.loads(lines.wait_for(lambda l: "mail.compose" in l))
        assert line["item"] == "compose"
    finally:
        stop(watcher)


def test_watch_exits_8_when_navd_is_gone_for_good(restartable):
    sock = restartable.socket_path
    ok(sock, "push", "Root", "--id", "root")
    watcher = subprocess.Popen([str(NAVCTL), "--json", "watch", "--json", "--follow-timeout", "1.5"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_for(sock))
    try:
        assert '"snapshot"' in watcher.stdout.readline()
        restartable.stop()
        started = time.monotonic()
        watcher.wait(timeout=30)
        assert watcher.returncode == 8, watcher.stderr.read()
        assert time.monotonic() - started >= 1.4
        error = json.loads(watcher.stderr.read().strip().splitlines()[-1])
        assert error["error"] == "navctl.Gone" and error["parameters"]["seconds"] == 1.5, error
    finally:
        stop(watcher)


def test_no_follow_exits_8_as_soon_as_navd_stops(restartable):
    sock = restartable.socket_path
    ok(sock, "push", "Root", "--id", "root")
    watcher = subprocess.Popen([str(NAVCTL), "watch", "--json", "--no-follow"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env_for(sock))
    try:
        assert '"snapshot"' in watcher.stdout.readline()
        restartable.stop()
        watcher.wait(timeout=30)
        assert watcher.returncode == 8, watcher.stderr.read()
    finally:
        stop(watcher)


# -- scripting ---------------------------------------------------------------------------------

def test_the_same_mutation_id_applies_once(navd, fresh_scene):
    sock = navd.socket_path
    ok(sock, "--scene", fresh_scene, "push", "Root", "--id", "root")
    before = json.loads(ok(sock, "--scene", fresh_scene, "get", "--json"))["version"]
    first = navctl(sock, "--scene", fresh_scene, "--json", "--mutation-id", "retry-1", "push", "Next", "--id", "next")
    assert first.returncode == 0, first.stderr
    again = navctl(sock, "--scene", fresh_scene, "--json", "push", "Next", "--id", "next",
                   NAVCTL_MUTATION_ID="retry-1")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["replayed"] is True
    assert "already applied" in again.stderr
    after = json.loads(ok(sock, "--scene", fresh_scene, "get", "--json"))
    assert after["version"] == before + 1
    assert [i["id"] for i in after["state"]["navigationBar"]["items"]] == ["root", "next"]


def test_a_request_beyond_the_frame_limit_is_refused_before_sending(navd, fresh_scene):
    ops = [{"op": "defineBarButtonItem", "barButtonItem": {"id": f"i{n}", "title": "x" * 200}} for n in range(6000)]
    document = json.dumps(ops)
    assert len(document) > 1_300_000
    result = navctl(navd.socket_path, "--scene", fresh_scene, "apply", "-", stdin=document)
    assert result.returncode == 1, result.stderr
    assert "frame limit of 1048576 bytes" in result.stderr and "connection closed" not in result.stderr, result.stderr
    as_json = navctl(navd.socket_path, "--scene", fresh_scene, "--json", "apply", "-", stdin=document)
    error = json.loads(as_json.stderr)
    assert error["error"] == "navctl.RequestTooLarge" and error["parameters"]["limit"] == 1048576, error


def test_a_timeout_has_its_own_message_and_exit_status(tmp_path):
    """A navd that accepts but never answers: exit 7 and a timeout message, not "cannot reach"."""
    path = str(tmp_path / "silent.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(4)
    try:
        result = navctl(path, "--timeout", "0.5", "get")
        assert result.returncode == 7, result.stderr
        assert "did not answer within 0.5 s" in result.stderr and "cannot reach" not in result.stderr, result.stderr
        as_json = navctl(path, "--timeout", "0.5", "--json", "get")
        assert as_json.returncode == 7
        assert json.loads(as_json.stderr)["error"] == "navctl.TimedOut"
    finally:
        server.close()


def test_errors_are_json_with_one_exit_status_per_class(navd, fresh_scene, tmp_path):
    sock = navd.socket_path
    ok(sock, "--scene", fresh_scene, "push", "Root", "--id", "root")
    cases = [
        (["psuh"], 2, "navctl.UsageError"),
        (["pop"], 1, "io.navd.CannotPopRoot"),
        (["pop", "--expect", "someone-else"], 4, "io.navd.Conflict"),
        (["push", "X", "--left", "nosuch"], 5, "io.navd.ItemNotFound"),
    ]
    for args, status, name in cases:
        result = navctl(sock, "--scene", fresh_scene, "--json", *args)
        assert result.returncode == status, (args, result.stderr)
        error = json.loads(result.stderr)
        assert error["error"] == name and isinstance(error["parameters"], dict), error
    missing = navctl(sock, "--scene", f"{fresh_scene}-none", "--json", "get")
    assert missing.returncode == 5 and json.loads(missing.stderr)["error"] == "io.navd.SceneNotFound"
    gone = navctl(str(tmp_path / "none.sock"), "--json", "get")
    assert gone.returncode == 3 and json.loads(gone.stderr)["error"] == "navctl.Unreachable"


def test_errors_name_the_flag_the_user_typed(navd, fresh_scene):
    result = navctl(navd.socket_path, "--scene", fresh_scene, "push", "X", "--left", "nosuch")
    assert result.returncode == 5
    assert "in: --left" in result.stderr, result.stderr
    as_json = navctl(navd.socket_path, "--scene", fresh_scene, "--json", "push", "X", "--right", "nosuch")
    assert json.loads(as_json.stderr)["parameters"]["option"] == "--right"


def test_back_and_activate_at_back_pop_the_top_item(navd, fresh_scene):
    sock = navd.socket_path
    for args in (["push", "Inbox", "--id", "inbox"], ["push", "Message", "--id", "message"],
                 ["push", "Detail", "--id", "detail"]):
        ok(sock, "--scene", fresh_scene, *args)
    assert ok(sock, "--scene", fresh_scene, "activate", "@back").startswith("went back")
    assert ok(sock, "--scene", fresh_scene, "back", "--expect", "message").startswith("went back")
    state = json.loads(ok(sock, "--scene", fresh_scene, "get", "--json"))["state"]
    assert [i["id"] for i in state["navigationBar"]["items"]] == ["inbox"]
    refused = navctl(sock, "--scene", fresh_scene, "back")
    assert refused.returncode == 1 and "ItemNotActivatable" in refused.stderr, refused.stderr


def test_scene_names_complete_from_navd(navd, fresh_scene):
    ok(navd.socket_path, "--scene", fresh_scene, "push", "Root", "--id", "root")
    assert fresh_scene in ok(navd.socket_path, "__complete", "scenes").split()


# -- a damaged database, read offline ----------------------------------------------------------


def test_export_of_a_damaged_database_shows_a_progress_line_only_on_a_terminal(tmp_path):
    """Offline `navctl export` reads scene by scene: with stderr a terminal, a progress line says
    which (rewritten in place, erased at the end); with stderr a pipe, nothing of it. Either way the
    scenes it can read go to stdout and the damaged one is named on stderr, exit 1 (navctl(1) export)."""
    import sqlite3

    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    with Navd(["--state-dir", str(state)], name="damaged-export") as navd:
        for scene in ("alpha", "beta", "gamma"):
            ok(navd.socket_path, "--scene", scene, "push", scene.capitalize(), "--id", scene)
    with sqlite3.connect(state / "navd.db") as database:
        database.execute("UPDATE scenes SET snapshot = 'not json' WHERE name = 'beta'")
    database.close()
    command = [str(NAVCTL), "export", "--state-dir", str(state)]
    env = env_for(str(tmp_path / "no-navd.sock"))

    piped = subprocess.run(command, capture_output=True, text=True, env=env, timeout=30)
    assert piped.returncode == 1, piped
    assert [s["name"] for s in json.loads(piped.stdout)["scenes"]] == ["alpha", "gamma"]
    assert "reading scene" not in piped.stderr and "\r" not in piped.stderr and "\x1b" not in piped.stderr
    assert 'scene "beta"' in piped.stderr, piped.stderr

    master, slave = pty.openpty()
    set_size(slave, 24, 100)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    seen = bytearray()
    stdout, _ = process.communicate(timeout=30)
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen.extend(chunk)
    os.close(master)
    assert process.returncode == 1
    assert stdout.decode() == piped.stdout, "stdout is the same whatever stderr is"
    text = seen.decode(errors="replace")
    for place, scene in enumerate(("alpha", "beta", "gamma"), start=1):
        assert f"\r\x1b[Knavctl: export: reading scene {place} of 3: {scene}" in text, text
    progress_end = text.rindex("reading scene 3 of 3: gamma")
    erased = text.index("\r\x1b[K", progress_end)
    assert text[erased + 4:].replace("\r\n", "\n") == piped.stderr, "after the line is erased: the same report"
