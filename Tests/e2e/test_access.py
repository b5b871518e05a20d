"""Access control against a real navd run as root (PROTOCOL.md § Access, navd(8)
ACCESS POLICY): the policy's rights per user, group and scene pattern, denials and
their log lines, reload, per-uid limits, the socket directory checks, and log lines no
client can forge.

Clients of other users: the test switches its *effective* uid/gid/groups around
`connect()` (SO_PEERCRED records the credentials in effect at connect), or runs
navctl under `setpriv --reuid/--regid/--clear-groups`. A throw-away system user and
group are created with useradd/groupadd and removed afterwards.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import grp
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from navd_fixture import DEFAULT_TIMEOUT, START_TIMEOUT, Navd, VarlinkConnection, VarlinkError, navd_binary

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="access tests switch users: run as root")

REPO = Path(__file__).resolve().parents[2]
NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO / ".build" / "debug" / "navctl"))
USER = "navde2e-alice"
GROUP = "navde2e-team"
BOB = 47011  # numeric uid with no passwd entry
CAROL = 47012  # member of GROUP through a supplementary group only
STRANGER = 47013  # granted nothing
ADMIN = 47014  # granted only admin
DENIED = "org.varlink.service.PermissionDenied"


@pytest.fixture(scope="module")
def identities():
    """A system group and a system user in it, removed afterwards."""
    subprocess.run(["groupadd", "--system", GROUP], check=True)
    try:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--gid", GROUP, USER],
            check=True,
        )
        try:
            yield pwd.getpwnam(USER).pw_uid, grp.getgrnam(GROUP).gr_gid
        finally:
            subprocess.run(["userdel", USER], check=False)
    finally:
        subprocess.run(["groupdel", GROUP], check=False)


@contextlib.contextmanager
def identity(uid: int, gid: int, groups: tuple[int, ...] = ()):
    """Runs the body with effective uid/gid and supplementary groups switched."""
    saved_groups = os.getgroups()
    os.setgroups(list(groups))
    os.setegid(gid)
    os.seteuid(uid)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)
        os.setgroups(saved_groups)


def connect_as(navd: Navd, uid: int, gid: int, groups: tuple[int, ...] = ()) -> VarlinkConnection:
    with identity(uid, gid, groups):
        return navd.connect()


def open_socket_to_everyone(navd: Navd) -> None:
    """The socket's mode is the outer gate; these tests open it so the policy decides."""
    os.chmod(navd.directory, 0o711)
    os.chmod(navd.socket_path, 0o666)


def write_policy(directory: Path, text: str) -> Path:
    path = directory / "policy.conf"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def served(identities):
    """A navd with the worked example's policy, a few scenes, and the socket open to all."""
    alice, team = identities
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-policy-"))
    policy = write_policy(
        directory,
        f"""[Access]
Allow=user:{USER} read,write scene:mail.*
Allow=group:{GROUP} read scene:main
Allow=user:{BOB} write scene:notes
Allow=user:{ADMIN} admin
""",
    )
    navd = Navd(args=["--policy", str(policy)], name="access").start()
    open_socket_to_everyone(navd)
    with navd.connect() as root:
        for scene in ["mail.inbox", "notes", "main"]:
            root.call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "defineBarButtonItem", "barButtonItem": {"id": "go", "title": "Go", "action": "go"}},
                {"op": "push", "item": {"id": "root", "title": "R", "rightBarButtonItems": ["go"]}},
            ]})
    try:
        yield navd, alice, team, directory
    finally:
        navd.cleanup()
        shutil.rmtree(directory, ignore_errors=True)


def answer(navd, who, method, parameters, more=None):
    """The reply of one call made as `who` (uid, gid, groups): ("ok", parameters) or (error, parameters)."""
    uid, gid, groups = who
    with connect_as(navd, uid, gid, groups) as connection:
        if method == "WatchActions":
            # An allowed watch answers at once with its `watching` frame (§3 WatchActions).
            connection.send("io.navd.WatchActions", parameters, more=True)
            reply = connection.recv()
        else:
            reply = connection.call_raw(f"io.navd.{method}", parameters, more=more)
    if "error" in reply:
        return reply["error"], reply.get("parameters", {})
    return "ok", reply.get("parameters", {})


ACTIVATE_MISSING = {"item": "no-such-item"}
# method, extra parameters, more, the right it needs, the error an allowed call gets on a missing scene.
CALLS = [
    ("GetState", {}, None, "read"),
    ("GetLayout", {}, None, "read"),
    ("Subscribe", {}, True, "read"),
    ("WatchActions", {}, True, "read"),
    ("Mutate", {"ops": [{"op": "push", "item": {"id": "x1", "title": "X"}}]}, None, "write"),
    ("Activate", ACTIVATE_MISSING, None, "write"),
]


def test_each_right_and_pattern_allowed_when_granted_denied_otherwise(served):
    """§ Access: read/write per scene pattern; rights are independent; denials name the right."""
    navd, alice, team, _ = served
    alice_id = (alice, 47020, ())  # not in the team group
    carol_id = (CAROL, CAROL, (team,))
    bob_id = (BOB, BOB, ())
    stranger_id = (STRANGER, STRANGER, ())
    grants = {  # who -> (right, scene) pairs granted
        alice_id: {("read", "mail.inbox"), ("write", "mail.inbox")},
        carol_id: {("read", "main")},
        bob_id: {("write", "notes")},
        stranger_id: set(),
    }
    for who, granted in grants.items():
        for scene in ["mail.inbox", "main", "notes"]:
            for method, extra, more, right in CALLS:
                name, parameters = answer(navd, who, method, {"scene": scene, **extra}, more=more)
                label = f"uid {who[0]} {method} {scene}"
                if (right, scene) in granted:
                    assert name != DENIED, label
                else:
                    assert name == DENIED, label
                    assert parameters["right"] == right and parameters["scene"] == scene, label
                    assert right in parameters["message"], label


def test_a_denial_is_logged_once_with_uid_gid_pid_and_right(served):
    """Each denial names a scene no other test uses, so a late line from an earlier test
    cannot be counted; a second denial, logged after the first, marks the end of the wait."""
    navd, *_ = served
    probe, end = (f"denial-{uuid.uuid4().hex[:12]}" for _ in range(2))
    name, _ = answer(navd, (STRANGER, 4242, ()), "GetState", {"scene": probe})
    assert name == DENIED
    assert answer(navd, (STRANGER, 4242, ()), "GetState", {"scene": end})[0] == DENIED
    assert navd.wait_for_log(rf"call rejected: .*\bscene={end}\b", timeout=30), navd.log()
    lines = [line for line in navd.log_lines() if f"scene={probe}" in line]
    assert len(lines) == 1, lines
    line = lines[0]
    assert "call rejected: " in line and "uid 47013" in line, line
    for field in [f"pid={os.getpid()}", "uid=47013", "gid=4242", "right=read", f"scene={probe}", f"error={DENIED}"]:
        assert field in line, (field, line)


def test_a_denied_read_of_a_missing_and_of_an_existing_scene_look_the_same(served):
    navd, *_ = served
    for method, extra, more, _ in CALLS:
        existing = answer(navd, (STRANGER, STRANGER, ()), method, {"scene": "mail.inbox", **extra}, more)
        missing = answer(navd, (STRANGER, STRANGER, ()), method, {"scene": "mail.nothere", **extra}, more)
        assert json.dumps(existing).replace("mail.inbox", "SCENE") == json.dumps(missing).replace("mail.nothere", "SCENE")


def test_list_scenes_lists_only_readable_scenes(served):
    navd, alice, team, _ = served
    def names(who):
        name, parameters = answer(navd, who, "ListScenes", {})
        assert name == "ok", parameters
        return [scene["name"] for scene in parameters["scenes"]]
    assert names((alice, 47020, ())) == ["mail.inbox"]
    assert names((CAROL, CAROL, (team,))) == ["main"]
    assert names((0, 0, ())) == ["mail.inbox", "main", "notes"]
    assert answer(navd, (BOB, BOB, ()), "ListScenes", {})[0] == DENIED, "write alone does not let you list"
    assert answer(navd, (STRANGER, STRANGER, ()), "ListScenes", {})[0] == DENIED


def test_server_info_needs_some_right_and_admin_alone_is_enough(served):
    navd, *_ = served
    assert answer(navd, (ADMIN, ADMIN, ()), "GetServerInfo", {})[0] == "ok"
    assert answer(navd, (ADMIN, ADMIN, ()), "GetState", {"scene": "main"})[0] == DENIED
    assert answer(navd, (BOB, BOB, ()), "GetServerInfo", {})[0] == "ok"
    name, parameters = answer(navd, (STRANGER, STRANGER, ()), "GetServerInfo", {})
    assert name == DENIED and parameters["right"] == "read"


def test_navctl_shows_a_denied_call_with_the_missing_right(served):
    """navctl: exit 1 and the missing right; a reader without write is told it lacks write."""
    navd, alice, team, _ = served
    if not NAVCTL.exists():
        pytest.fail(f"navctl not built at {NAVCTL}")
    for credentials, right in [
        ([f"--reuid={STRANGER}", f"--regid={STRANGER}", "--clear-groups"], "read"),
        ([f"--reuid={CAROL}", f"--regid={CAROL}", f"--groups={team}"], "write"),
    ]:
        result = subprocess.run(
            ["setpriv", *credentials, str(NAVCTL), "--socket", navd.socket_path, "--scene", "main", "title", "Hacked"],
            capture_output=True, text=True, timeout=20, env=dict(os.environ, NO_COLOR="1"),
        )
        assert result.returncode == 6, result  # navctl's exit status for permission denied
        assert DENIED in result.stderr and f"missing right: {right} on scene main" in result.stderr, result.stderr


def test_reload_applies_a_valid_policy_and_refuses_an_invalid_one(identities):
    alice, team = identities
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-reload-"))
    policy = write_policy(directory, f"[Access]\nAllow=user:{USER} read scene:main\n")
    navd = Navd(args=["--policy", str(policy)], name="reload").start()
    try:
        open_socket_to_everyone(navd)
        who = (alice, team, ())
        assert answer(navd, who, "GetState", {"scene": "main"})[0] == "ok"
        assert answer(navd, who, "Mutate", {"scene": "main", "ops": [{"op": "push", "item": {"id": "a", "title": "A"}}]})[0] == DENIED

        before = len(navd.log_lines())
        write_policy(directory, f"[Access]\nAllow=user:{USER} read,write scene:main\n")
        os.kill(navd.pid, signal.SIGHUP)
        assert navd.wait_for_log("access policy reloaded", after=before)
        assert answer(navd, who, "Mutate", {"scene": "main", "ops": [{"op": "push", "item": {"id": "a", "title": "A"}}]})[0] == "ok"

        before = len(navd.log_lines())
        write_policy(directory, "[Access]\nAllow=user:nobody-such-user read\n")
        os.kill(navd.pid, signal.SIGHUP)
        refused = navd.wait_for_log("access policy refused", after=before)
        assert refused and f"{policy}:2: Allow: no user named" in refused[0], refused
        assert answer(navd, who, "Mutate", {"scene": "main", "ops": [{"op": "push", "item": {"id": "b", "title": "B"}}]})[0] == "ok", "the old policy stays"
    finally:
        navd.cleanup()
        shutil.rmtree(directory, ignore_errors=True)


def test_an_invalid_policy_at_start_names_file_line_and_reason():
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-badpolicy-"))
    try:
        policy = write_policy(directory, "[Access]\n\nAllow=user:root fly\n")
        result = subprocess.run(
            [str(navd_binary()), "--socket", str(directory / "navd.sock"), "--policy", str(policy)],
            capture_output=True, text=True, timeout=20, cwd=directory,
            env=dict(os.environ, XDG_STATE_HOME=str(directory)),  # its default state directory is temporary too
        )
        assert result.returncode == 1
        assert f"{policy}:3: Allow: unknown right \"fly\"" in result.stderr, result.stderr
        assert not (directory / "navd.sock").exists()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def test_one_uid_at_its_connection_limit_does_not_stop_another(identities):
    """§ Access, per-user limits: LimitExceeded names connectionsPerUser; other uids are served."""
    alice, team = identities
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-peruid-"))
    policy = write_policy(directory, f"[Access]\nAllow=user:{USER} read\nAllow=user:{BOB} read\n")
    navd = Navd(args=["--policy", str(policy), "--max-connections-per-uid", "3"], name="peruid").start()
    held = []
    try:
        open_socket_to_everyone(navd)
        for _ in range(3):
            connection = connect_as(navd, alice, team)
            connection.call("io.navd.ListScenes")
            held.append(connection)
        with connect_as(navd, alice, team) as fourth:
            reply = fourth.call_raw("io.navd.ListScenes")
            assert reply["error"] == "io.navd.LimitExceeded"
            assert reply["parameters"]["limit"] == "connectionsPerUser" and reply["parameters"]["max"] == 3
        with connect_as(navd, BOB, BOB) as other:
            assert "scenes" in other.call("io.navd.ListScenes")
        held.pop().close()
        # A freed slot is served again (the close is seen by navd before the next accept, or not: retry, bounded).
        deadline = time.monotonic() + DEFAULT_TIMEOUT
        while True:
            with connect_as(navd, alice, team) as again:
                reply = again.call_raw("io.navd.ListScenes")
            if "error" not in reply or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert "error" not in reply, reply
    finally:
        for connection in held:
            connection.close()
        navd.cleanup()
        shutil.rmtree(directory, ignore_errors=True)


def test_one_uid_over_its_output_quota_loses_its_stalled_connections_not_others(identities):
    """§ Access, per-user limits: unread output is charged to the uid; past
    --max-output-bytes-per-uid that uid's stalled subscribers are closed (logged with
    outputBytesPerUser) while another uid's subscriber keeps receiving updates."""
    alice, team = identities
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-peruid-out-"))
    policy = write_policy(directory, f"[Access]\nAllow=user:{USER} read\nAllow=user:{BOB} read\n")
    navd = Navd(args=["--policy", str(policy), "--max-output-bytes-per-uid", "65536"], name="peruid-out").start()
    stalled = []
    try:
        open_socket_to_everyone(navd)
        with navd.connect() as root:
            root.call("io.navd.Mutate", {"scene": "main", "ops": [{"op": "push", "item": {"id": "r", "title": "r"}}]})
            for _ in range(4):
                connection = connect_as(navd, alice, 47020)
                connection.send("io.navd.Subscribe", {"scene": "main"}, more=True)
                connection.recv()  # the snapshot; after it, this subscriber reads nothing
                stalled.append(connection)
            reader = connect_as(navd, BOB, BOB)
            reader.send("io.navd.Subscribe", {"scene": "main"}, more=True)
            reader.recv()
            def drain_reader():
                while reader.frame_ready():
                    reader.recv()
            closed = []
            for batch in range(60):  # bounded: at most 3,000 mutations
                for i in range(50):
                    # Pushes and pops carry events, so each version is an update of its own
                    # (pipelined title changes alone would be one update per commit group, §6).
                    title = f"{batch}-{i}-" + "t" * 240
                    ops = [{"op": "push", "item": {"id": "x", "title": title}}] if i % 2 == 0 else [{"op": "pop"}]
                    root.send("io.navd.Mutate", {"scene": "main", "ops": ops})
                for _ in range(50):
                    assert "error" not in root.recv()
                drain_reader()
                closed = navd.wait_for_log(r"limit outputBytesPerUser", timeout=0.01)
                if closed:
                    break
            assert closed, "no connection was closed for outputBytesPerUser"
            assert f"uid {alice} has more than 65536 bytes" in closed[0]
            assert "uid=%d" % alice in closed[0]
            # The other uid's subscriber is still served: it sees the next version.
            final = root.call("io.navd.Mutate", {"scene": "main", "ops": [
                {"op": "updateNavigationItem", "item": "r", "set": {"title": "last"}}]})["version"]
            deadline = time.monotonic() + DEFAULT_TIMEOUT
            seen = 0
            while seen < final and time.monotonic() < deadline:
                seen = reader.recv().get("parameters", {}).get("toVersion", seen)
            assert seen == final
            reader.close()
    finally:
        for connection in stalled:
            connection.close()
        navd.cleanup()
        shutil.rmtree(directory, ignore_errors=True)


# -- the socket directory ----------------------------------------------------------------

def start_default_socket(runtime: Path, timeout: float = START_TIMEOUT, args: tuple[str, ...] = ()):
    """navd without --socket, so it uses (and checks) $XDG_RUNTIME_DIR/navd. Returns
    (exit code or None if it is serving, stderr, process)."""
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime))
    env.pop("NAVD_SOCKET", None)
    out = runtime / "out.log"
    err = runtime / "err.log"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        process = subprocess.Popen([str(navd_binary()), *args], cwd=runtime, env=env, stdout=stdout, stderr=stderr,
                                   stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if "listening on unix:" in out.read_text(errors="replace"):
            return None, err.read_text(errors="replace"), process
        if process.poll() is not None:
            return process.returncode, err.read_text(errors="replace"), process
        time.sleep(0.02)
    process.kill()
    process.wait()
    raise AssertionError(f"navd neither listened nor exited within {timeout} s")


def stop(process):
    if process.poll() is None:
        process.terminate()
        process.wait(DEFAULT_TIMEOUT)


@pytest.fixture
def runtime():
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-rt-"))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def make_foreign(path: Path):
    path.mkdir(mode=0o700)
    os.chown(path, 65534, 65534)


UNSAFE = {
    "foreign owner": (lambda rt: make_foreign(rt / "navd"), "is owned by uid 65534, not by navd's uid 0"),
    "world-writable": (lambda rt: ((rt / "navd").mkdir(), os.chmod(rt / "navd", 0o777)),
                       "is writable by its group and others (mode 777, owner root)"),
    "group-writable": (lambda rt: ((rt / "navd").mkdir(), os.chmod(rt / "navd", 0o770)),
                       "is writable by its group (mode 770, owner root)"),
    "symlink to a foreign directory": (lambda rt: (make_foreign(rt / "other"), os.symlink(rt / "other", rt / "navd")),
                                       "is a symbolic link (to "),
    "symlink to navd's own directory": (lambda rt: ((rt / "mine").mkdir(mode=0o700), os.symlink(rt / "mine", rt / "navd")),
                                        "is a symbolic link (to "),
}


@pytest.mark.parametrize("case", sorted(UNSAFE))
def test_an_unsafe_socket_directory_is_refused_with_its_reason_and_no_socket(runtime, case):
    prepare, message = UNSAFE[case]
    prepare(runtime)
    code, stderr, process = start_default_socket(runtime)
    stop(process)
    assert code == 1, stderr
    assert f"{runtime}/navd {message}" in stderr, stderr
    for directory in ["navd", "other", "mine"]:
        assert not (runtime / directory / "navd.sock").exists(), directory


@pytest.mark.parametrize("case", ["missing", "existing 0700", "existing 0755"])
def test_a_safe_socket_directory_starts(runtime, case):
    if case != "missing":
        (runtime / "navd").mkdir()
        os.chmod(runtime / "navd", 0o700 if case == "existing 0700" else 0o755)
    code, stderr, process = start_default_socket(runtime)
    try:
        assert code is None, stderr
        assert (runtime / "navd" / "navd.sock").exists()
        if case == "missing":
            assert os.stat(runtime / "navd").st_mode & 0o7777 == 0o700
        assert os.stat(runtime / "navd" / "navd.sock").st_mode & 0o777 == 0o600
    finally:
        stop(process)


def test_a_socket_shared_with_a_group_lets_members_in_and_keeps_others_out(runtime, identities):
    """--socket-group: directory 0750 and socket 0660 with the group; the mode stays the outer gate."""
    _, team = identities
    os.chmod(runtime, 0o711)
    policy = write_policy(runtime, f"[Access]\nAllow=group:{GROUP} read\n")
    code, stderr, process = start_default_socket(runtime, args=("--socket-group", GROUP, "--policy", str(policy)))
    try:
        assert code is None, stderr
        directory = os.stat(runtime / "navd")
        sock = os.stat(runtime / "navd" / "navd.sock")
        assert (directory.st_mode & 0o7777, directory.st_gid) == (0o750, team)
        assert (sock.st_mode & 0o777, sock.st_gid) == (0o660, team)
        path = str(runtime / "navd" / "navd.sock")
        with identity(CAROL, CAROL, (team,)):
            member = VarlinkConnection(path)
        with member:
            assert "scenes" in member.call("io.navd.ListScenes")
        with identity(STRANGER, STRANGER, ()):
            with pytest.raises(PermissionError):
                VarlinkConnection(path)
    finally:
        stop(process)


def test_an_explicit_socket_in_a_writable_directory_is_refused(runtime):
    shared = runtime / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    result = subprocess.run([str(navd_binary()), "--socket", str(shared / "navd.sock")],
                            capture_output=True, text=True, timeout=20, cwd=runtime)
    assert result.returncode == 1 and "is writable by its group and others" in result.stderr, result.stderr
    assert "chmod go-w " + str(shared) in result.stderr, "navd's user's own directory: removing the access is fine"
    assert not (shared / "navd.sock").exists()


def test_a_socket_in_tmp_is_refused_with_advice_to_move_the_socket_not_to_change_tmp(runtime):
    """Issue 26: root's navd refuses /tmp (anyone may write there) and says to give another
    socket path, never to chmod go-w or remove /tmp."""
    path = f"/tmp/navd-e2e-{os.getpid()}.sock"
    result = subprocess.run([str(navd_binary()), "--socket", path, "--state-dir", str(runtime / "state")],
                            capture_output=True, text=True, timeout=20, cwd=runtime)
    assert result.returncode == 1, result
    assert "/tmp is writable by its group and others (mode 1777, owner root): any user could replace navd's socket" \
        in result.stderr, result.stderr
    assert "not one to change" in result.stderr and "--socket PATH (or NAVD_SOCKET" in result.stderr, result.stderr
    assert "such as /run/navd" in result.stderr, result.stderr
    assert "chmod" not in result.stderr and "remove" not in result.stderr, result.stderr
    assert not os.path.exists(path)


# -- logs no client can forge -------------------------------------------------------------

def hostile(n: int) -> str:
    return f"FORGED{n}\nnavd[1] error: forged line {n}\x1b[2J\r\u2028tail"


def test_hostile_strings_through_every_logged_field_give_one_escaped_line_each(navd):
    """§ Access, logs: method, scene, parameter names, ids, op field names, interface,
    top-level keys, and the scene of a denied call (logged as `scene`)."""
    cases = {
        1: ("call", f"io.navd.{hostile(1)}", {}),
        2: ("call", "io.navd.GetState", {"scene": hostile(2)}),
        3: ("call", "io.navd.GetState", {"scene": "main", hostile(3): 1}),
        4: ("call", "io.navd.Mutate", {"scene": "main", "clientId": hostile(4) + "x" * 200,
                                       "ops": [{"op": "push", "item": {"id": "q", "title": "Q"}}]}),
        5: ("call", "io.navd.Mutate", {"scene": "main", "ops": [{"op": "push", "item": {"id": hostile(5)}}]}),
        6: ("call", "io.navd.Mutate", {"scene": "main", "ops": [{"op": "push", "item": {"id": "z", hostile(6): 1}}]}),
        7: ("call", f"{hostile(7)}.Interface.Method", {}),
        8: ("raw", json.dumps({"method": "io.navd.ListScenes", hostile(8): True}).encode() + b"\0", None),
        9: ("call", "io.navd.Mutate", {"scene": hostile(9), "ops": [{"op": "push", "item": {"id": "q", "title": "Q"}}]}),
    }
    before = len(navd.log_lines())
    for n, (kind, method, parameters) in cases.items():
        with navd.connect() as connection:
            if kind == "raw":
                connection.send_raw(method)
                assert connection.is_closed_by_peer()
            else:
                connection.call_raw(method, parameters)
        lines = navd.wait_for_log(f"FORGED{n}", after=before)
        assert len(lines) == 1, (n, lines)
        assert "\\n" in lines[0] and "\\x1b" in lines[0] and "\\r" in lines[0], (n, lines[0])
        assert len(lines[0].encode()) < 4096, n
    log = navd.log()
    assert "\x1b" not in log and "\u2028" not in log
    assert not [line for line in navd.log_lines() if line.startswith("navd[1]")]


def test_hostile_scene_in_a_denial_is_escaped(served):
    navd, *_ = served
    before = len(navd.log_lines())
    name, _ = answer(navd, (STRANGER, STRANGER, ()), "GetState", {"scene": hostile(10)})
    assert name == DENIED
    lines = navd.wait_for_log("FORGED10", after=before)
    assert len(lines) == 1 and "\\x1b" in lines[0], lines
