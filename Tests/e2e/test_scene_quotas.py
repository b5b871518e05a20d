"""issue 27 item 6: per-uid quotas for scenes (--max-scenes-per-uid) and for waited scenes
(--max-waited-scenes-per-uid), so one user cannot use up --max-scenes or the waited-scene
limit for everyone, root included: each uid gets its share, and the last sixteenth of each
limit is left to root and navd's own uid, who have no per-uid quota (PROTOCOL.md §10
"Per-user limits", §9.12). The second user is a real system user (useradd, idempotent)
running navctl under setpriv; further uids connect with a switched effective uid."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from navd_fixture import Navd, VarlinkConnection, VarlinkError, unwrap

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None or shutil.which("useradd") is None,
    reason="creates a system user and runs as other uids: run as root")

REPO = Path(__file__).resolve().parents[2]
NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO / ".build" / "debug" / "navctl"))
USER = "navd-test-u1"
OTHERS = [47052, 47053, 47054]  # numeric uids with no passwd entry
LIMIT = "io.navd.LimitExceeded"


@pytest.fixture(scope="module")
def user_uid() -> int:
    """navd-test-u1, created once (useradd only when it does not exist yet)."""
    try:
        return pwd.getpwnam(USER).pw_uid
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
                       check=False, capture_output=True)
        return pwd.getpwnam(USER).pw_uid


@contextlib.contextmanager
def connected_as(navd: Navd, uid: int):
    os.setegid(uid if uid != pwd.getpwnam(USER).pw_uid else pwd.getpwnam(USER).pw_gid)
    os.seteuid(uid)
    try:
        connection = navd.connect()
    finally:
        os.seteuid(0)
        os.setegid(0)
    with connection:
        yield connection


def create(connection: VarlinkConnection, scene: str) -> dict:
    return connection.call_raw("io.navd.Mutate", {"scene": scene, "ops": [{"op": "push", "item": {"id": "r"}}]})


def limit_of(reply: dict) -> tuple[str, int]:
    assert reply.get("error") == LIMIT, reply
    return reply["parameters"]["limit"], reply["parameters"]["max"]


def test_scene_quota_per_uid_and_the_reserve_for_root(user_uid, tmp_path):
    policy = tmp_path / "policy.conf"
    policy.write_text("[Access]\n" + f"Allow=user:{USER} read,write\n"
                      + "".join(f"Allow=user:{uid} read,write\n" for uid in OTHERS))
    # 20 scenes, 5 per uid; the reserve for root is max(1, 20 / 16) = 1.
    with Navd(args=["--policy", str(policy), "--max-scenes", "20", "--max-scenes-per-uid", "5"],
              name="quotas") as navd:
        os.chmod(navd.directory, 0o711)
        os.chmod(navd.socket_path, 0o666)
        # The real user, through navctl: its first scene.
        result = subprocess.run(
            ["setpriv", f"--reuid={user_uid}", f"--regid={pwd.getpwnam(USER).pw_gid}", "--clear-groups",
             str(NAVCTL), "--socket", navd.socket_path, "--scene", "u1-0", "push", "First"],
            capture_output=True, text=True, timeout=30, env=dict(os.environ, NO_COLOR="1"))
        assert result.returncode == 0, result.stderr
        with connected_as(navd, user_uid) as u1:
            for k in range(1, 5):
                assert "error" not in create(u1, f"u1-{k}")
            over = create(u1, "u1-5")
            assert limit_of(over) == ("scenesPerUser", 5)
            assert f"uid {user_uid} already holds 5 scenes" in over["parameters"]["message"]
            assert "error" not in create(u1, "u1-0"), "its own scenes still take mutations"
        with navd.connect() as root:
            with pytest.raises(VarlinkError):
                root.call("io.navd.GetState", {"scene": "u1-5"})  # the refused creation left nothing
            # main + 5 of u1 = 6; two more users' 5 each = 16; the third user's 3 = 19 = 20 - reserve.
            for uid, count in zip(OTHERS, [5, 5, 3]):
                with connected_as(navd, uid) as other:
                    for k in range(count):
                        assert "error" not in create(other, f"s{uid}-{k}")
            with connected_as(navd, OTHERS[2]) as third:
                reserved = create(third, "into-the-reserve")
                assert limit_of(reserved) == ("maxScenes", 20)
                assert "reserved for root and navd's own uid" in reserved["parameters"]["message"]
            assert "error" not in create(root, "root-0"), "root takes the reserve"
            assert limit_of(create(root, "root-1")) == ("maxScenes", 20)
            assert len(root.call("io.navd.ListScenes")["scenes"]) == 20


def test_waited_scene_quota_per_uid(user_uid, tmp_path):
    policy = tmp_path / "policy.conf"
    policy.write_text(f"[Access]\nAllow=user:{USER} read\nAllow=user:{OTHERS[0]} read\n")
    with Navd(args=["--policy", str(policy), "--max-waited-scenes-per-uid", "3"], name="waited") as navd:
        os.chmod(navd.directory, 0o711)
        os.chmod(navd.socket_path, 0o666)
        waiting = []
        try:
            for k in range(3):
                stack = contextlib.ExitStack()
                connection = stack.enter_context(connected_as(navd, user_uid))
                connection.send("io.navd.Subscribe", {"scene": f"w{k}", "waitForScene": True}, more=True)
                assert unwrap(connection.recv())["version"] == 0
                waiting.append(stack)
            with connected_as(navd, user_uid) as fourth:
                fourth.send("io.navd.Subscribe", {"scene": "w3", "waitForScene": True}, more=True)
                assert limit_of(fourth.recv()) == ("waitedScenesPerUser", 3)
                # A name it already waits for is not one more.
                fourth.send("io.navd.Subscribe", {"scene": "w0", "waitForScene": True}, more=True)
                assert unwrap(fourth.recv())["version"] == 0
            with connected_as(navd, OTHERS[0]) as other:
                other.send("io.navd.Subscribe", {"scene": "w3", "waitForScene": True}, more=True)
                assert unwrap(other.recv())["version"] == 0, "another uid has its own share"
            with navd.connect() as root:
                for k in range(5):
                    root.send("io.navd.Subscribe", {"scene": f"root-w{k}", "waitForScene": True}, more=True)
                    assert unwrap(root.recv())["version"] == 0
                    root.close()
                    root = navd.connect()
            # One of the user's waits ends: its share has room again.
            waiting.pop().close()
            with connected_as(navd, user_uid) as again:
                # The closed connection's wait ends on navd's loop, a moment after the close.
                for _ in range(50):
                    again.send("io.navd.Subscribe", {"scene": "w9", "waitForScene": True}, more=True)
                    reply = again.recv()
                    if "error" not in reply:
                        break
                    time.sleep(0.1)
                assert unwrap(reply)["version"] == 0
        finally:
            for stack in waiting:
                stack.close()
