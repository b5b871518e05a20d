"""Remembered mutation ids are per uid (CONFLICTS.md I5), against a real navd run as
root: another user who sends the same clientId and mutationId is not answered with
root's remembered reply, and its mutation is a new one.

The other user's connection is made with the test's *effective* uid switched around
`connect()` (SO_PEERCRED records the credentials in effect at connect), as
test_access.py does.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from navd_fixture import Navd

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="switches its effective uid: run as root")

OTHER = 47021  # a numeric uid with no passwd entry, granted write on the scene


def connect_as(navd: Navd, uid: int):
    saved = os.getgroups()
    os.setgroups([])
    os.setegid(uid)
    os.seteuid(uid)
    try:
        return navd.connect()
    finally:
        os.seteuid(0)
        os.setegid(0)
        os.setgroups(saved)


def retitle(title: str) -> dict:
    return {"scene": "notes", "clientId": "shared-client", "mutationId": "m-i5",
            "ops": [{"op": "updateNavigationItem", "item": "root", "set": {"title": title}}]}


def test_another_uid_with_the_same_ids_gets_no_remembered_reply_even_after_a_restart():
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-i5-"))
    policy = directory / "policy.conf"
    policy.write_text(f"[Access]\nAllow=user:{OTHER} read,write scene:notes\n")
    state = directory / "state"
    navd = Navd(args=["--policy", str(policy), "--state-dir", str(state)], name="i5").start()
    try:
        os.chmod(navd.directory, 0o711)
        os.chmod(navd.socket_path, 0o666)
        with navd.connect() as root:
            root.call("io.navd.Mutate", {"scene": "notes", "ops": [
                {"op": "push", "item": {"id": "root", "title": "R"}}]})
            first = root.call("io.navd.Mutate", retitle("root's secret title"))
            again = root.call("io.navd.Mutate", retitle("root's secret title"))
        assert first["version"] == 2 and not first.get("replayed")
        assert again["version"] == 2 and again.get("replayed") is True, "root's own retry is remembered"
        with connect_as(navd, OTHER) as other:
            same = other.call("io.navd.Mutate", retitle("root's secret title"))
            retried = other.call("io.navd.Mutate", retitle("root's secret title"))
        assert not same.get("replayed") and same["version"] == 3, same
        assert retried.get("replayed") is True and retried["version"] == 3, "the other uid's id is its own"
    finally:
        navd.stop()
        navd.cleanup()
    navd = Navd(args=["--policy", str(policy), "--state-dir", str(state)], name="i5-restarted").start()
    try:
        os.chmod(navd.directory, 0o711)
        os.chmod(navd.socket_path, 0o666)
        with navd.connect() as root:
            after = root.call("io.navd.Mutate", retitle("root's secret title"))
        with connect_as(navd, OTHER) as other:
            other_after = other.call("io.navd.Mutate", retitle("root's secret title"))
        assert after["version"] == 2 and after.get("replayed") is True
        assert other_after["version"] == 3 and other_after.get("replayed") is True
    finally:
        navd.cleanup()
        shutil.rmtree(directory, ignore_errors=True)
