"""Import over the socket (PROTOCOL.md §3 Import): navctl export → mutate → import against a
running navd, python's generic varlink client driving Import piece by piece, the admin right,
and a refused document changing nothing."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from navd_fixture import Navd, VarlinkError
from test_operations import DENIED, PUSH, STRANGER, navctl, navd_with_policy


def state_text(state: dict) -> str:
    return json.dumps(state, separators=(",", ":"), sort_keys=True)


def test_export_mutate_import_with_navctl_restores_the_scenes_durably_in_a_new_epoch():
    directory = Path(tempfile.mkdtemp(prefix="navd-e2e-import-"))
    try:
        with Navd(args=["--state-dir", str(directory)], name="import") as navd:
            with navd.connect() as connection:
                connection.call("io.navd.Mutate", {"scene": "alpha", "ops": PUSH})
                connection.call("io.navd.Mutate", {"scene": "main", "ops": PUSH})
            backup = directory / "backup.json"
            exported = navctl(navd, "export")
            assert exported.returncode == 0, exported
            backup.write_text(exported.stdout)
            before = {s["name"]: s for s in json.loads(exported.stdout)["scenes"]}
            with navd.connect() as connection:
                connection.call("io.navd.Mutate", {"scene": "alpha", "ops": [
                    {"op": "push", "item": {"id": "later", "title": "Later"}}]})
                watcher = navd.connect()
                watcher.send("io.navd.Subscribe", {"scene": "alpha", "view": "state"}, more=True)
                assert watcher.recv()["parameters"]["kind"] == "snapshot"
            imported = navctl(navd, "import", str(backup))
            assert imported.returncode == 0, imported
            assert "imported 2 scene(s) into the running navd" in imported.stdout
            frame = watcher.recv()["parameters"]
            assert frame["kind"] == "snapshot", "a subscriber gets a fresh document, not a patch"
            assert frame["document"] == before["alpha"]["state"]
            assert frame["version"] == before["alpha"]["version"]
            assert frame["epoch"] != before["alpha"]["epoch"], "each imported scene starts a new epoch"
            watcher.close()
            with navd.connect() as connection:
                alpha = connection.call("io.navd.GetState", {"scene": "alpha"})
            assert alpha["state"] == before["alpha"]["state"] and alpha["epoch"] == frame["epoch"]
        # Durable before acknowledged: a restart serves the imported history.
        with Navd(args=["--state-dir", str(directory)], name="import-again") as navd:
            with navd.connect() as connection:
                again = connection.call("io.navd.GetState", {"scene": "alpha"})
            assert again == alpha
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def test_python_varlink_client_imports_piece_by_piece_and_a_refused_document_changes_nothing(navd, fresh_scene):
    import varlink

    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": PUSH})
        state = connection.call("io.navd.GetState", {"scene": fresh_scene})
    text = state_text(state["state"]).encode()
    with varlink.Client(address=navd.address) as client, client.open("io.navd") as io_navd:
        offset = 0
        reply = None
        while offset < len(text):
            piece = text[offset:offset + 40]
            last = offset + len(piece) == len(text)
            reply = io_navd.Import(
                scene=fresh_scene, version=77, offset=offset, text=piece.decode(), last=last)
            offset = reply["received"]
        assert reply["version"] == 77 and reply["created"] is False and reply["epoch"] != state["epoch"]
        bad = state["state"]
        bad["navigationBar"]["items"][0]["title"] = "x" * 5000
        with pytest.raises(varlink.VarlinkError) as refused:
            io_navd.Import(scene=fresh_scene, version=78, offset=0, text=state_text(bad), last=True)
        error = refused.value.error()
        assert error == "io.navd.LimitExceeded", refused.value
        parameters = refused.value.parameters()
        assert parameters["field"] == "state.navigationBar.items[0].title"
        assert f'scene "{fresh_scene}"' in parameters["message"]
    with navd.connect() as connection:
        after = connection.call("io.navd.GetState", {"scene": fresh_scene})
    assert after["version"] == 77 and after["epoch"] == reply["epoch"], "the refused document changed nothing"


def test_import_needs_the_admin_right_and_navctl_exits_6():
    with navd_with_policy(f"[Access]\nAllow=user:{STRANGER} read scene:*\n", "import-policy") as navd:
        with navd.connect() as root:
            root.call("io.navd.Mutate", {"scene": "main", "ops": PUSH})
        exported = navctl(navd, "export")
        assert exported.returncode == 0, exported
        backup = Path(navd.directory) / "backup.json"
        backup.write_text(exported.stdout)
        backup.chmod(0o644)
        denied = navctl(navd, "import", str(backup), uid=STRANGER)
        assert denied.returncode == 6, denied
        assert DENIED in denied.stderr and "admin" in denied.stderr, denied.stderr
        with navd.connect() as connection, pytest.raises(VarlinkError) as refused:
            connection.call("io.navd.Import", {"scene": "main", "version": 1, "offset": 0, "text": "{}", "last": True})
        assert refused.value.name == "io.navd.InvalidMutation"
