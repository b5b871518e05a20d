"""Issue 28, "Places the spec leaves a client guessing": each answered in Protocol/ (the section
named by the test, PROTOCOL.md §9.21–§9.31 unless said otherwise) or the man pages, and checked
here on the wire.

Every test names the section it checks. Negative checks never sleep: they wait for a later reply
on the same connection (a positive marker)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import tempfile
import uuid
from pathlib import Path

import jsonpatch
import pytest

from navd_fixture import REPO_ROOT, Navd, VarlinkConnection, encode_call, protocol_file, unwrap
from systemd_harness import ActivatedNavd, NotifyListener, listening_socket
from test_mutation_id_scope import connect_as
from test_operations import navctl, navd_with_policy
from test_redo_log import kill_after_acknowledgements
from test_spec_answers import LIMIT_CASES

ROOT_WITH_ITEMS = [
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "go", "title": "Go", "action": "go.now"}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "plain", "title": "Plain"}},
    {"op": "push", "item": {"id": "root", "title": "Root", "rightBarButtonItems": ["go", "plain"]}},
]
GRANTED_NOTHING_THAT_EXISTS = 47031  # read on scene:nothing.*, which no scene matches
WRITE_ONLY = 47032  # write on every scene, no read
UNGRANTED = 47033  # no right at all


def error_of(connection: VarlinkConnection, method: str, parameters: dict, **flags) -> tuple[str, dict]:
    reply = connection.call_raw(method, parameters, **flags)
    assert "error" in reply, f"expected an error, got {reply}"
    return reply["error"], reply.get("parameters") or {}


@contextlib.contextmanager
def state_directory(name: str):
    path = Path(tempfile.mkdtemp(prefix=f"navd-e2e-{name}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- §9.22 LimitExceeded's value is text ------------------------------------------------------------

@pytest.mark.parametrize("limit", sorted(LIMIT_CASES))
def test_9_22_limit_exceeded_value_is_a_string_and_max_a_number(navd, fresh_scene, limit):
    """§9.22: every LimitExceeded carries `value` as a JSON string (the IDL's `value: ?string`),
    whether it quotes an id, a title or a count, and `max` as a number."""
    ops, extra, maximum = LIMIT_CASES[limit]
    with navd.connect() as connection:
        name, details = error_of(connection, "io.navd.Mutate", {"scene": fresh_scene, "ops": ops, **extra})
    assert name == "io.navd.LimitExceeded" and details["limit"] == limit
    assert isinstance(details["value"], str), details
    assert isinstance(details["max"], int) and details["max"] == maximum
    declaration = re.search(r"error LimitExceeded \(([^)]*)\)", protocol_file("io.navd.varlink").read_text(), re.S)
    assert declaration and "value: ?string" in declaration.group(1)


def test_9_22_a_turned_away_connection_gets_its_count_as_text():
    """§9.22, §2 "When navd turns a connection away": `value` is the count as text ("2"), `max` 1."""
    with Navd(args=["--max-connections", "1"], name="value-text") as navd, navd.connect() as first:
        assert "scenes" in first.call("io.navd.ListScenes")
        with navd.connect() as second:
            reply = second.recv()
    assert reply["error"] == "io.navd.LimitExceeded"
    assert (reply["parameters"]["limit"], reply["parameters"]["value"], reply["parameters"]["max"]) == (
        "connections", "2", 1)


def test_9_22_max_scenes_value_is_the_scene_name():
    """§9.22: a quota's `value` is the name it refused, as text."""
    with Navd(args=["--max-scenes", "1"], name="value-scene") as navd, navd.connect() as connection:
        name, details = error_of(connection, "io.navd.Mutate", {"scene": "second", "ops": ROOT_WITH_ITEMS})
    assert name == "io.navd.LimitExceeded" and (details["limit"], details["value"], details["max"]) == (
        "maxScenes", "second", 1)


# -- §9.23 a plain Activate reply has no version -----------------------------------------------------

def test_9_23_a_plain_activate_reply_is_action_and_watchers_without_version(navd, fresh_scene):
    """§9.23 (SEMANTICS R59): an activation changes no state, so its reply has exactly `action`
    (null when the item has none, never absent) and `watchers`; only `@back` adds `version`."""
    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": ROOT_WITH_ITEMS})
        with_action = connection.call("io.navd.Activate", {"scene": fresh_scene, "item": "go"})
        without = connection.call("io.navd.Activate", {"scene": fresh_scene, "item": "plain"})
        assert with_action == {"action": "go.now", "watchers": 0}
        assert without == {"action": None, "watchers": 0}
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [{"op": "push", "item": {"id": "child"}}]})
        back = connection.call("io.navd.Activate", {"scene": fresh_scene, "item": "@back"})
        assert back == {"action": None, "watchers": 0, "version": 3}


# -- §9.21 a waited-for scene's first commit group ---------------------------------------------------

def test_9_21_the_first_update_runs_from_0_to_the_first_groups_last_version(navd, fresh_scene):
    """§9.21, §6 "Gap-free": the mutations that create a waited-for scene may be one commit group
    (pipelined together); the first update then runs from version 0 to the group's last version
    (0 -> 6 for six eventless mutations stored together), and the updates from 0 on chain without
    a gap to the scene's state."""
    with navd.connect() as waiter, navd.connect() as writer:
        waiter.send("io.navd.Subscribe", {"scene": fresh_scene, "view": "state", "waitForScene": True}, more=True)
        snapshot = unwrap(waiter.recv())
        assert (snapshot["kind"], snapshot["version"]) == ("snapshot", 0)
        writer.send_raw(b"".join(encode_call("io.navd.Mutate", {"scene": fresh_scene, "ops": [
            {"op": "defineBarButtonItem", "barButtonItem": {"id": f"b{n}", "title": f"B{n}"}}]}) for n in range(6)))
        versions = [unwrap(writer.recv())["version"] for _ in range(6)]
        assert versions == [1, 2, 3, 4, 5, 6]
        document, at, updates = snapshot["document"], 0, []
        while at < 6:
            update = unwrap(waiter.recv())
            assert update["kind"] == "update" and update["fromVersion"] == at and not update.get("coalesced"), update
            document = jsonpatch.apply_patch(document, update["patch"])
            at = update["toVersion"]
            updates.append((update["fromVersion"], update["toVersion"]))
        assert updates[0][0] == 0 and at == 6, updates
        print(f"updates of the first groups: {updates}")
        assert document == writer.call("io.navd.GetState", {"scene": fresh_scene})["state"]


# -- §9.24 a carried WatchActions stream says `watching` again ---------------------------------------

def test_9_24_a_carried_watch_actions_stream_gets_one_more_watching_frame():
    """§9.24, §6 "Stopping and restarting": after a restart that keeps clients, a carried
    WatchActions stream gets exactly one more `watching` frame, from the next navd, with the
    scene's version there; every Activate after it reaches the watcher."""
    notify = NotifyListener()
    workdir = tempfile.mkdtemp(prefix="navd-e2e-watching-")
    path = os.path.join(workdir, "navd.sock")
    listener = listening_socket(path)
    env = {"NOTIFY_SOCKET": notify.path}
    state = ["--state-dir", os.path.join(workdir, "state")]
    first = ActivatedNavd([listener.fileno()], ["navd"], args=state, env=env)
    second = None
    try:
        first.wait_listening()
        with VarlinkConnection(path) as writer, VarlinkConnection(path) as watcher:
            assert writer.call("io.navd.Mutate", {"scene": "main", "ops": ROOT_WITH_ITEMS})["version"] == 1
            watcher.send("io.navd.WatchActions", {"scene": "main"}, more=True)
            assert unwrap(watcher.recv()) == {"kind": "watching", "scene": "main", "version": 1}
            ready = notify.wait_for("READY", "1")
            first.process.send_signal(signal.SIGUSR2)
            assert first.process.wait(15) == 75, first.log()
            stopping = notify.wait_for("STOPPING", "1", after=ready)
            stored = [m for m in notify.snapshot()[stopping:] if m.fields.get("FDSTORE") == "1"]
            second = ActivatedNavd([listener.fileno()] + [m.fds[0] for m in stored],
                                   ["navd"] + [m.fields["FDNAME"] for m in stored], args=state, env=env)
            second.wait_listening()
            assert writer.call("io.navd.Mutate", {"scene": "main", "ops": [
                {"op": "updateNavigationItem", "item": "root", "set": {"title": "Again"}}]})["version"] == 2
            again = unwrap(watcher.recv(timeout=15))
            assert again["kind"] == "watching" and again["scene"] == "main" and again["version"] in (1, 2), again
            assert writer.call("io.navd.Activate", {"scene": "main", "item": "go"})["watchers"] == 1
            activation = unwrap(watcher.recv(timeout=15))
            assert (activation["kind"], activation["item"]) == ("activation", "go"), "no second `watching` frame"
    finally:
        listener.close()
        first.stop()
        if second is not None:
            second.stop()
            shutil.rmtree(second.directory, ignore_errors=True)
        shutil.rmtree(first.directory, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)
        notify.close()


# -- §9.26 the snapshot schedule counts from the last snapshot ----------------------------------------

def test_9_26_snapshots_at_the_first_version_then_every_n_after_the_last():
    """§9.26, §6 "Commits, snapshots and restarts": with --snapshot-interval 4, versions 1 and 5
    carry snapshots (1, 1+4, …, not multiples of 4). After a restart the op log starts at the
    newest (5): a resume from 5 gets updates, one from 4 a snapshot."""
    with state_directory("snapshots") as state:
        args = ["--state-dir", str(state), "--snapshot-interval", "4"]
        with Navd(args=args, name="snapshots") as navd, navd.connect() as connection:
            connection.call("io.navd.Mutate", {"scene": "main", "ops": [{"op": "push", "item": {"id": "root"}}]})
            for n in range(2, 8):
                reply = connection.call("io.navd.Mutate", {"scene": "main", "ops": [
                    {"op": "updateNavigationItem", "item": "root", "set": {"title": f"T{n}"}}]})
            assert reply["version"] == 7
            epoch = connection.call("io.navd.GetState", {"scene": "main"})["epoch"]
        with Navd(args=args, name="snapshots-again") as navd:
            with navd.connect() as resumed:
                resumed.send("io.navd.Subscribe", {"scene": "main", "view": "state", "sinceVersion": 5,
                                                   "epoch": epoch}, more=True)
                first = unwrap(resumed.recv())
                assert (first["kind"], first["fromVersion"], first["toVersion"]) == ("update", 5, 6), first
            with navd.connect() as older:
                older.send("io.navd.Subscribe", {"scene": "main", "view": "state", "sinceVersion": 4,
                                                 "epoch": epoch}, more=True)
                first = unwrap(older.recv())
                assert (first["kind"], first["version"]) == ("snapshot", 7), first


# -- §9.27 what a remembered mutation id counts (CONFLICTS I4) ----------------------------------------

def test_9_27_the_byte_bound_not_the_count_forgets_uuid_ids_first(navd, fresh_scene):
    """§9.27, CONFLICTS I4: 1 MiB holds about 3,000 ids of a UUID each (what they take on the heap,
    not 1 MiB / 10,000 = 105 bytes each): after 4,500 later ids, under the 10,000 of the count
    bound, the first is forgotten (a retry applies anew) and a recent one is still answered from
    memory."""
    client = "client-" + uuid.uuid4().hex
    ids = [str(uuid.uuid4()) for _ in range(4_501)]
    ops = [{"op": "setBarHidden", "bar": "toolbar", "hidden": False}]
    with navd.connect() as connection:
        for start in range(0, len(ids), 64):
            batch = ids[start:start + 64]
            connection.send_raw(b"".join(encode_call("io.navd.Mutate", {
                "scene": fresh_scene, "ops": ops, "clientId": client, "mutationId": m}) for m in batch))
            for _ in batch:
                assert not unwrap(connection.recv())["replayed"]
        recent = connection.call("io.navd.Mutate", {
            "scene": fresh_scene, "ops": ops, "clientId": client, "mutationId": ids[-1]})
        assert recent["replayed"] and recent["version"] == len(ids)
        oldest = connection.call("io.navd.Mutate", {
            "scene": fresh_scene, "ops": ops, "clientId": client, "mutationId": ids[0]})
        assert not oldest["replayed"] and oldest["version"] == len(ids) + 1


# -- §9.28 resuming at the imported version -----------------------------------------------------------

def test_9_28_resuming_at_exactly_the_imported_version(navd, fresh_scene):
    """§9.28, §3 Import: after an import at version V in epoch E, a resume from V in E gets no
    first frame (nothing to replay) and then the updates after V; from V with the export's epoch,
    or from below V, it gets a snapshot at V."""
    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": ROOT_WITH_ITEMS})
        exported = connection.call("io.navd.GetState", {"scene": fresh_scene})
        text = json.dumps(exported["state"], separators=(",", ":"))
        imported = connection.call("io.navd.Import", {
            "scene": fresh_scene, "version": 40, "offset": 0, "text": text, "last": True})
        assert imported["version"] == 40 and imported["epoch"] != exported["epoch"]

        def first_frame(since: int, epoch: str | None) -> dict:
            subscriber = navd.connect()
            parameters = {"scene": fresh_scene, "view": "state", "sinceVersion": since}
            if epoch is not None:
                parameters["epoch"] = epoch
            subscriber.send("io.navd.Subscribe", parameters, more=True)
            return subscriber

        same = first_frame(40, imported["epoch"])
        bare = first_frame(40, None)
        other = first_frame(40, exported["epoch"])
        below = first_frame(39, imported["epoch"])
        with same, bare, other, below:
            for subscriber in (other, below):
                frame = unwrap(subscriber.recv())
                assert (frame["kind"], frame["version"], frame["epoch"]) == ("snapshot", 40, imported["epoch"])
            reply = connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [
                {"op": "updateNavigationItem", "item": "root", "set": {"title": "After"}}]})
            assert reply["version"] == 41
            for subscriber in (same, bare):
                frame = unwrap(subscriber.recv())
                assert (frame["kind"], frame["fromVersion"], frame["toVersion"]) == ("update", 40, 41), frame


def test_9_28_resuming_at_the_version_of_an_offline_import():
    """§9.28, STORAGE §5: the same after `navctl import --state-dir` and a start: the imported
    snapshot is the op log's floor, so a resume from it in the new epoch gets updates."""
    with state_directory("offline-import") as state:
        document = {"format": "navd-export", "formatVersion": 1, "scenes": [
            {"name": "main", "epoch": "00000000000000aa", "version": 9, "state": None}]}
        with Navd(name="offline-source") as source, source.connect() as connection:
            connection.call("io.navd.Mutate", {"scene": "main", "ops": ROOT_WITH_ITEMS})
            document["scenes"][0]["state"] = connection.call("io.navd.GetState", {"scene": "main"})["state"]
        backup = state / "backup.json"
        backup.write_text(json.dumps(document))
        target = state / "target"
        imported = navctl(source, "import", "--state-dir", str(target), str(backup))
        assert imported.returncode == 0, imported
        with Navd(args=["--state-dir", str(target)], name="offline-import") as navd, navd.connect() as writer:
            epoch = writer.call("io.navd.GetState", {"scene": "main"})["epoch"]
            assert epoch != "00000000000000aa"
            with navd.connect() as subscriber:
                subscriber.send("io.navd.Subscribe", {"scene": "main", "view": "state", "sinceVersion": 9,
                                                      "epoch": epoch}, more=True)
                writer.call("io.navd.Mutate", {"scene": "main", "ops": [
                    {"op": "updateNavigationItem", "item": "root", "set": {"title": "After"}}]})
                frame = unwrap(subscriber.recv())
                assert (frame["kind"], frame["fromVersion"], frame["toVersion"]) == ("update", 9, 10), frame


# -- §9.29 an export and a main never written ---------------------------------------------------------

def test_9_29_a_main_never_written_is_left_out_even_when_named():
    """§9.29, §3 Export: `main` at version 0 (never written, or deleted) holds nothing to restore
    and is left out of every export: Export naming it ends at once with `exported: 0`, and navctl's
    online and offline exports have no scene; another scene that does not exist is not found
    (exit 5) both ways."""
    with state_directory("export-main") as state, Navd(args=["--state-dir", str(state)], name="export-main") as navd:
        with navd.connect() as connection:
            assert connection.call("io.navd.Export", {"scenes": ["main"]}, more=True) == {"kind": "end", "exported": 0}
            assert connection.call("io.navd.Export", {}, more=True) == {"kind": "end", "exported": 0}
        for extra in ([], ["--state-dir", str(state)]):
            exported = navctl(navd, "--scene", "main", "export", *extra)
            assert exported.returncode == 0, exported
            assert json.loads(exported.stdout)["scenes"] == [], extra
            missing = navctl(navd, "--scene", "nope", "export", *extra)
            assert (missing.returncode, missing.stdout) == (5, ""), (extra, missing)
        with navd.connect() as connection:
            connection.call("io.navd.Mutate", {"scene": "main", "ops": ROOT_WITH_ITEMS})
            assert [s["name"] for s in json.loads(navctl(navd, "export").stdout)["scenes"]] == ["main"]
            connection.call("io.navd.DeleteScene", {"scene": "main"})
            assert connection.call("io.navd.Export", {"scenes": ["main"]}, more=True) == {"kind": "end", "exported": 0}


# -- §9.30 "read on at least one scene" is a grant -----------------------------------------------------

POLICY_28 = (f"[Access]\nAllow=user:{GRANTED_NOTHING_THAT_EXISTS} read scene:nothing.*\n"
             f"Allow=user:{WRITE_ONLY} write\n")


@pytest.mark.skipif(os.geteuid() != 0, reason="denials need other uids: run as root")
def test_9_30_a_read_grant_that_matches_no_scene_lists_and_exports_nothing():
    """§9.30, §10 Rights: "read on at least one scene" means a read grant, whether or not a scene
    matches it now: ListScenes answers an empty list and Export `exported: 0`; a caller with no
    read grant at all (write only) is denied."""
    with navd_with_policy(POLICY_28, "grant-matches-nothing") as navd:
        with navd.connect() as root:
            root.call("io.navd.Mutate", {"scene": "main", "ops": ROOT_WITH_ITEMS})
        with connect_as(navd, GRANTED_NOTHING_THAT_EXISTS) as reader:
            assert reader.call("io.navd.ListScenes") == {"scenes": []}
            assert reader.call("io.navd.Export", {}, more=True) == {"kind": "end", "exported": 0}
        with connect_as(navd, WRITE_ONLY) as writer:
            for method, flags in (("ListScenes", {}), ("Export", {"more": True})):
                name, details = error_of(writer, f"io.navd.{method}", {}, **flags)
                assert name == "org.varlink.service.PermissionDenied" and details["right"] == "read", details
                assert "scene" not in details


# -- §9.31 the right a GetServerInfo denial names ------------------------------------------------------

@pytest.mark.skipif(os.geteuid() != 0, reason="denials need other uids: run as root")
def test_9_31_a_get_server_info_denial_names_read_and_says_any_right_would_do():
    """§9.31, §10 Rights: GetServerInfo needs any right; a caller with none is denied with
    `right: "read"` (the least right that admits it), no `scene`, and a message saying that read
    or write on some scene, or admin, would do."""
    with navd_with_policy(POLICY_28, "server-info-denial") as navd:
        with connect_as(navd, WRITE_ONLY) as writer:
            assert "version" in writer.call("io.navd.GetServerInfo")
        with connect_as(navd, UNGRANTED) as stranger:
            name, details = error_of(stranger, "io.navd.GetServerInfo", {})
        assert name == "org.varlink.service.PermissionDenied"
        assert details["right"] == "read" and "scene" not in details, details
        assert "any right" in details["message"] and "admin" in details["message"], details["message"]


# -- navctl(1) EXIT STATUS: an import navctl refuses itself ------------------------------------------

def test_navctl_exits_1_for_an_import_it_refuses_itself_and_sends_nothing(navd, fresh_scene, tmp_path):
    """navctl(1) EXIT STATUS, STORAGE §5: an export document navctl refuses before sending (not an
    export, a state that breaks a rule) exits 1 and imports nothing; an unreadable FILE is a usage
    error (2)."""
    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": ROOT_WITH_ITEMS})
        before = connection.call("io.navd.GetState", {"scene": fresh_scene})
    bad_state = json.loads(json.dumps(before["state"]))
    bad_state["navigationBar"]["items"][0]["title"] = "x" * 300
    documents = {
        "not-json": "{",
        "not-an-export": json.dumps({"format": "other"}),
        "breaks-a-rule": json.dumps({"format": "navd-export", "formatVersion": 1, "scenes": [
            {"name": fresh_scene, "epoch": before["epoch"], "version": 5, "state": bad_state}]}),
    }
    for name, text in documents.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        refused = navctl(navd, "import", str(path))
        assert refused.returncode == 1, (name, refused)
        assert refused.stderr.startswith("navctl: import:"), (name, refused.stderr)
    assert "navigationBar.items[0].title" in refused.stderr, refused.stderr
    missing = navctl(navd, "import", str(tmp_path / "absent.json"))
    assert missing.returncode == 2, missing
    with navd.connect() as connection:
        assert connection.call("io.navd.GetState", {"scene": fresh_scene}) == before, "nothing was imported"


# -- navd(8): pipelining, the redo log, and what to copy -------------------------------------------------

def man_page(name: str) -> str:
    return (REPO_ROOT / "man" / name).read_text()


def test_navd_8_says_calls_are_pipelined_and_navd_answers_them_in_order(navd, fresh_scene):
    """navd(8) DESCRIPTION, PROTOCOL §2: calls may be pipelined on a connection (not "one call at a
    time"); navd answers them in the order sent."""
    page = man_page("navd.8")
    assert "one call at a time" not in page
    assert re.search(r"pipelin", page.split(".SH OPTIONS")[0])
    with navd.connect() as connection:
        connection.send_raw(
            encode_call("io.navd.Mutate", {"scene": fresh_scene, "ops": ROOT_WITH_ITEMS})
            + encode_call("io.navd.GetState", {"scene": fresh_scene})
            + encode_call("io.navd.Activate", {"scene": fresh_scene, "item": "go"}))
        assert unwrap(connection.recv())["version"] == 1
        assert unwrap(connection.recv())["version"] == 1
        assert unwrap(connection.recv())["action"] == "go.now"


def test_navd_8_copying_every_navd_file_of_a_killed_navd_keeps_every_acknowledged_version():
    """navd(8) STATE and FILES, STORAGE §1: a mutation is acknowledged once its redo log record is
    written (--durability normal), before the database holds it; so a copy of the state is every
    navd.* file together (navd.db, -wal, -shm and navd.redo.*), and a copy of a killed navd's files
    serves every acknowledged version."""
    page = man_page("navd.8")
    state_section = page.split(".SH STATE")[1].split(".SH")[0]
    assert "redo log" in state_section and "acknowledged only after its transaction committed" not in page
    assert "copy all three together" not in page and "navd.redo" in page.split(".SH FILES")[1]
    with state_directory("copy-source") as source, state_directory("copy-target") as target:
        last, expected = kill_after_acknowledgements(str(source))
        copied = sorted(path.name for path in source.glob("navd.*") if path.name != "navd.lock")
        assert any(name.startswith("navd.redo.") for name in copied), copied
        for name in copied:
            shutil.copy2(source / name, target / name)
        with Navd(args=["--state-dir", str(target)], name="copy-target") as navd, navd.connect() as connection:
            reply = connection.call("io.navd.GetState", {"scene": "main"})
        assert reply["version"] == last
        assert reply["state"]["navigationBar"]["items"][-1]["title"] == expected["title"]

