"""Operating a running navd over its own socket (issue 28, "Operations"): DeleteScene and
the `created` flag of Mutate, from navctl and from python's generic varlink client, under
the access policy (PROTOCOL.md §3 DeleteScene, §10).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from navd_fixture import Navd, VarlinkError

REPO = Path(__file__).resolve().parents[2]
NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO / ".build" / "debug" / "navctl"))
PUSH = [{"op": "push", "item": {"id": "root", "title": "Root"}}]
DENIED = "org.varlink.service.PermissionDenied"
STRANGER = 47021  # granted only read
WRITER = 47022  # granted read and write on scratch.*


def navctl(navd: Navd, *args: str, uid: int | None = None) -> subprocess.CompletedProcess:
    if not NAVCTL.exists():
        pytest.fail(f"navctl not built at {NAVCTL}")
    command = [str(NAVCTL), "--socket", navd.socket_path, *args]
    if uid is not None:
        command = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=20, env=dict(os.environ, NO_COLOR="1"))


def varlink_cli(navd: Navd, method: str, parameters: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "varlink.cli", "call", f"{navd.address}/io.navd.{method}", json.dumps(parameters)],
        capture_output=True, text=True, timeout=20,
    )


@contextlib.contextmanager
def navd_with_policy(text: str, name: str):
    """A navd under the access policy `text`, its socket open to every uid so the policy decides."""
    directory = Path(tempfile.mkdtemp(prefix=f"navd-e2e-{name}-"))
    try:
        policy = directory / "policy.conf"
        policy.write_text(text)
        with Navd(args=["--policy", str(policy)], name=name) as navd:
            os.chmod(navd.directory, 0o711)
            os.chmod(navd.socket_path, 0o666)
            yield navd
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def test_navctl_says_when_a_write_creates_a_scene_and_delete_scene_removes_it(navd, fresh_scene):
    """A typo creates a scene: navctl says so on stderr (stdout stays the reply); delete-scene removes it."""
    first = navctl(navd, "--scene", fresh_scene, "push", "Oops")
    assert first.returncode == 0, first
    assert first.stderr == f"navctl: created scene {fresh_scene}\n"
    assert first.stdout == "oops\n", "stdout stays the generated id"
    second = navctl(navd, "--scene", fresh_scene, "--json", "push", "Again")
    assert second.returncode == 0 and second.stderr == "", second
    assert json.loads(second.stdout)["created"] is False
    deleted = navctl(navd, "delete-scene", fresh_scene)
    assert deleted.returncode == 0, deleted
    assert deleted.stdout.startswith(f"deleted scene {fresh_scene} (version 2, epoch "), deleted.stdout
    assert fresh_scene not in navctl(navd, "scenes").stdout
    gone = navctl(navd, "--scene", fresh_scene, "get")
    assert gone.returncode == 5 and "io.navd.SceneNotFound" in gone.stderr, gone
    again = navctl(navd, "--scene", fresh_scene, "push", "New")
    assert again.stderr == f"navctl: created scene {fresh_scene}\n", "a later write creates it anew"


def test_delete_scene_if_version_and_unknown_scene_exit_statuses(navd, fresh_scene):
    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": PUSH})
    stale = navctl(navd, "--if-version", "7", "delete-scene", fresh_scene)
    assert stale.returncode == 4 and "io.navd.Conflict" in stale.stderr, stale
    assert fresh_scene in navctl(navd, "scenes").stdout, "a refused deletion deletes nothing"
    assert navctl(navd, "--if-version", "1", "delete-scene", fresh_scene).returncode == 0
    missing = navctl(navd, "delete-scene", fresh_scene)
    assert missing.returncode == 5 and "io.navd.SceneNotFound" in missing.stderr, missing
    usage = navctl(navd, "delete-scene")
    assert usage.returncode == 2, "the name is never defaulted: deleting needs it explicitly"


def test_every_stream_of_a_deleted_scene_gets_its_queue_then_scene_deleted(navd, fresh_scene):
    with navd.connect() as writer, navd.connect() as subscriber, navd.connect() as watcher:
        writer.call("io.navd.Mutate", {"scene": fresh_scene, "ops": PUSH})
        subscriber.send("io.navd.Subscribe", {"scene": fresh_scene, "view": "state"}, more=True)
        assert subscriber.recv()["parameters"]["kind"] == "snapshot"
        watcher.send("io.navd.WatchActions", {"scene": fresh_scene}, more=True)
        assert watcher.recv()["parameters"]["kind"] == "watching"
        writer.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [
            {"op": "updateNavigationItem", "item": "root", "set": {"title": "Last"}}]})
        deleted = writer.call("io.navd.DeleteScene", {"scene": fresh_scene})
        assert deleted["version"] == 2 and len(deleted["epoch"]) == 16
        update = subscriber.recv()
        assert update["parameters"]["kind"] == "update" and update["parameters"]["toVersion"] == 2
        for connection in (subscriber, watcher):
            final = connection.recv()
            assert final["error"] == "io.navd.SceneDeleted", final
            assert final["parameters"]["scene"] == fresh_scene and final["parameters"]["version"] == 2
            # The stream ended; the connection serves calls again.
            assert connection.call("io.navd.GetServerInfo")["scenes"] >= 1
        with pytest.raises(VarlinkError) as late:
            writer.call("io.navd.Subscribe", {"scene": fresh_scene}, more=True)
        assert late.value.name == "io.navd.SceneNotFound"


def test_a_deletion_survives_a_restart_and_the_next_write_is_a_new_history():
    state = Path(tempfile.mkdtemp(prefix="navd-e2e-delete-"))
    try:
        with Navd(args=["--state-dir", str(state)], name="delete-durable") as navd:
            with navd.connect() as connection:
                connection.call("io.navd.Mutate", {"scene": "mail", "ops": PUSH})
                old = connection.call("io.navd.GetState", {"scene": "mail"})["epoch"]
                connection.call("io.navd.DeleteScene", {"scene": "mail"})
        with Navd(args=["--state-dir", str(state)], name="delete-durable") as navd:
            with navd.connect() as connection:
                names = [scene["name"] for scene in connection.call("io.navd.ListScenes")["scenes"]]
                assert names == ["main"]
                reply = connection.call("io.navd.Mutate", {"scene": "mail", "ops": PUSH})
                assert reply["version"] == 1 and reply["created"] is True
                assert connection.call("io.navd.GetState", {"scene": "mail"})["epoch"] != old
    finally:
        shutil.rmtree(state, ignore_errors=True)


def test_python_varlink_client_deletes_a_scene(navd, fresh_scene):
    import varlink

    with navd.connect() as connection:
        created = connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": PUSH})
    assert created["created"] is True
    with varlink.Client(address=navd.address) as client, client.open("io.navd") as io_navd:
        reply = io_navd.DeleteScene(scene=fresh_scene)
        assert reply["version"] == 1
        with pytest.raises(varlink.VarlinkError) as missing:
            io_navd.DeleteScene(scene=fresh_scene)
        assert missing.value.error() == "io.navd.SceneNotFound"
    result = varlink_cli(navd, "DeleteScene", {"scene": fresh_scene, "ifVersion": 3})
    assert "io.navd.SceneNotFound" in result.stderr, result


@pytest.mark.skipif(os.geteuid() != 0, reason="denials need other uids: run as root")
def test_delete_scene_needs_the_write_right_and_a_denial_names_it():
    policy = f"[Access]\nAllow=user:{STRANGER} read\nAllow=user:{WRITER} read,write scene:scratch.*\n"
    with navd_with_policy(policy, "delete-policy") as navd:
        with navd.connect() as root:
            for scene in ["scratch.a", "kept"]:
                root.call("io.navd.Mutate", {"scene": scene, "ops": PUSH})
        denied = navctl(navd, "delete-scene", "kept", uid=STRANGER)
        assert denied.returncode == 6, denied
        assert DENIED in denied.stderr and "missing right: write on scene kept" in denied.stderr, denied.stderr
        assert navctl(navd, "delete-scene", "kept", uid=WRITER).returncode == 6
        assert navctl(navd, "delete-scene", "scratch.a", uid=WRITER).returncode == 0
        with navd.connect() as root:
            names = [scene["name"] for scene in root.call("io.navd.ListScenes")["scenes"]]
        assert names == ["kept", "main"]

def test_stats_count_mutations_conflicts_and_refusals_in_every_form(navd, fresh_scene):
    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": PUSH})
        title = [{"op": "updateNavigationItem", "item": "root", "set": {"title": "T"}}]
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": title})
        with pytest.raises(VarlinkError):
            connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": title, "baseVersion": 1,
                                               "clientId": "other", "policy": "failOnConflict"})
        stats = connection.call("io.navd.GetStatistics")
    scene = next(s for s in stats["scenes"] if s["name"] == fresh_scene)
    assert scene["mutations"] == 2 and scene["failOnConflictConflicts"] == 1
    assert {"error": "io.navd.Conflict", "count": 1} in scene["refusals"]
    assert stats["commitLatency"]["count"] >= 2 and stats["databaseBytes"] > 0
    text = navctl(navd, "stats")
    assert text.returncode == 0 and "mutations:" in text.stdout, text
    as_json = json.loads(navctl(navd, "stats", "--json").stdout)
    assert as_json["mutations"] >= 2
    prometheus = navctl(navd, "stats", "--prometheus")
    assert prometheus.returncode == 0, prometheus
    lines = prometheus.stdout.splitlines()
    assert f'navd_mutations_total{{scene="{fresh_scene}"}} 2' in lines
    assert "# TYPE navd_commit_duration_seconds histogram" in lines
    assert any(line.startswith('navd_commit_duration_seconds_bucket{le="+Inf"} ') for line in lines)
    for line in lines:
        assert line.startswith(("# HELP navd_", "# TYPE navd_", "navd_")), line
    result = varlink_cli(navd, "GetStatistics", {})
    assert result.returncode == 0 and json.loads(result.stdout)["scenes"], result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="denials need other uids: run as root")
def test_stats_need_the_admin_right_and_a_denial_names_it():
    with navd_with_policy(f"[Access]\nAllow=user:{STRANGER} read\nAllow=user:{WRITER} admin\n", "stats-policy") as navd:
        denied = navctl(navd, "stats", uid=STRANGER)
        assert denied.returncode == 6, denied
        assert DENIED in denied.stderr and "missing right: admin" in denied.stderr, denied.stderr
        allowed = navctl(navd, "stats", "--json", uid=WRITER)
        assert allowed.returncode == 0, allowed
        assert {"right": "admin", "count": 1} in json.loads(allowed.stdout)["denials"]


def test_export_over_the_socket_is_the_offline_export_byte_for_byte_and_keeps_serving():
    state = Path(tempfile.mkdtemp(prefix="navd-e2e-export-"))
    try:
        with Navd(args=["--state-dir", str(state)], name="export") as navd:
            big = "x" * 200  # several scenes, one with a state larger than a 64 KiB chunk
            with navd.connect() as connection:
                connection.call("io.navd.Mutate", {"scene": "alpha", "ops": PUSH})
                for k in range(8):
                    connection.call("io.navd.Mutate", {"scene": "big", "ops": [
                        {"op": "defineBarButtonItem", "barButtonItem": {"id": f"b{k}-{n}", "title": f"é{big}"}}
                        for n in range(60)]})
            online = navctl(navd, "export")
            assert online.returncode == 0, online
            offline = navctl(navd, "export", "--state-dir", str(state))
            assert offline.returncode == 0, offline
            assert online.stdout == offline.stdout, "the same document, byte for byte"
            document = json.loads(online.stdout)
            assert [scene["name"] for scene in document["scenes"]] == ["alpha", "big"], "main never written: left out"
            one = json.loads(navctl(navd, "--scene", "alpha", "export").stdout)
            assert [scene["name"] for scene in one["scenes"]] == ["alpha"]
            with navd.connect() as connection:
                connection.send("io.navd.Export", {"scenes": ["big"]}, more=True)
                header = connection.recv()["parameters"]
                assert header["kind"] == "scene" and header["chunks"] > 1
                texts = [connection.recv()["parameters"]["text"] for _ in range(header["chunks"])]
                assert all(len(t.encode()) <= 65536 for t in texts)
                end = connection.recv()
                assert end["parameters"] == {"kind": "end", "exported": 1} and "continues" not in end
                assert json.loads("".join(texts)) == document["scenes"][1]["state"]
                with pytest.raises(VarlinkError) as missing:
                    connection.call("io.navd.Export", {"scenes": ["nope"]}, more=True)
                assert missing.value.name == "io.navd.SceneNotFound"
    finally:
        shutil.rmtree(state, ignore_errors=True)


def test_python_varlink_client_exports(navd, fresh_scene):
    import varlink

    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": PUSH})
    with varlink.Client(address=navd.address) as client, client.open("io.navd") as io_navd:
        frames = list(io_navd.Export(scenes=[fresh_scene], _more=True))
    assert frames[0]["kind"] == "scene" and frames[0]["name"] == fresh_scene
    assert frames[-1] == {"kind": "end", "exported": 1}


@pytest.mark.skipif(os.geteuid() != 0, reason="denials need other uids: run as root")
def test_export_needs_read_on_each_scene_and_exports_only_readable_ones():
    with navd_with_policy(f"[Access]\nAllow=user:{STRANGER} read scene:open.*\n", "export-policy") as navd:
        with navd.connect() as root:
            for scene in ["open.a", "secret"]:
                root.call("io.navd.Mutate", {"scene": scene, "ops": PUSH})
        readable = navctl(navd, "export", uid=STRANGER)
        assert readable.returncode == 0, readable
        assert [s["name"] for s in json.loads(readable.stdout)["scenes"]] == ["open.a"]
        denied = navctl(navd, "--scene", "secret", "export", uid=STRANGER)
        assert denied.returncode == 6, denied
        assert DENIED in denied.stderr and "missing right: read on scene secret" in denied.stderr, denied.stderr
