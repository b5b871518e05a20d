"""navctl against a real navd: every subcommand changes what `get --json` shows,
each failure class has its exit code, and `watch --json` streams one line per update.
(navctl issue, "Tests"). navctl's own parsing and drawing are unit-tested in Swift."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO / ".build" / "debug" / "navctl"))


def navctl(navd, scene: str, *args: str, stdin: str | None = None, timeout: float = 20) -> subprocess.CompletedProcess:
    env = dict(os.environ, NAVD_SOCKET=navd.socket_path, NO_COLOR="1")
    return subprocess.run(
        [str(NAVCTL), "--scene", scene, *args], input=stdin, capture_output=True, text=True, env=env, timeout=timeout
    )


def ok(navd, scene: str, *args: str, stdin: str | None = None) -> str:
    result = navctl(navd, scene, *args, stdin=stdin)
    assert result.returncode == 0, f"navctl {' '.join(args)} exited {result.returncode}: {result.stderr}"
    return result.stdout


def state(navd, scene: str) -> dict:
    return json.loads(ok(navd, scene, "get", "--json"))["state"]


def top(doc: dict) -> dict:
    return doc["navigationBar"]["items"][-1]


def item(doc: dict, ident: str) -> dict:
    return next(i for i in doc["barButtonItems"] if i["id"] == ident)


@pytest.fixture(autouse=True)
def _require_navctl():
    if not NAVCTL.exists():
        pytest.fail(f"navctl not built at {NAVCTL}; run `swift build --product navctl` (or set NAVCTL_BIN)")


# (arguments, check on the state after) — run in order on one scene, each must change the state as described.
STEPS = [
    (["item", "edit", "--system", "edit"], lambda d: item(d, "edit")["systemItem"] == "edit"),
    (["item", "compose", "--system", "compose", "--action", "mail.compose"], lambda d: item(d, "compose")["action"] == "mail.compose"),
    (["item", "refresh", "--system", "refresh"], lambda d: item(d, "refresh")["systemItem"] == "refresh"),
    (["item", "flex", "--system", "flexibleSpace"], lambda d: item(d, "flex")["systemItem"] == "flexibleSpace"),
    (["item", "trash", "--system", "trash"], lambda d: item(d, "trash")["systemItem"] == "trash"),
    (["push", "Inbox", "--id", "inbox", "--left", "edit", "--right", "compose"],
     lambda d: top(d)["id"] == "inbox" and top(d)["leftBarButtonItems"] == ["edit"] and top(d)["rightBarButtonItems"] == ["compose"]),
    (["toolbar", "set", "refresh", "flex", "trash"], lambda d: d["toolbar"]["items"] == ["refresh", "flex", "trash"]),
    (["title", "Mail"], lambda d: top(d)["title"] == "Mail"),
    (["prompt", "Checking…"], lambda d: top(d)["prompt"] == "Checking…"),
    (["prompt", "--clear"], lambda d: "prompt" not in top(d)),
    (["push", "Message", "--id", "message", "--animated"], lambda d: top(d)["id"] == "message"),
    (["hide-back"], lambda d: top(d)["hidesBackButton"] is True),
    (["show-back"], lambda d: top(d)["hidesBackButton"] is False),
    (["supplement-back", "on"], lambda d: top(d)["leftItemsSupplementBackButton"] is True),
    (["right", "add", "trash"], lambda d: top(d)["rightBarButtonItems"] == ["trash"]),
    (["right", "add", "refresh"], lambda d: top(d)["rightBarButtonItems"] == ["trash", "refresh"]),
    (["right", "move", "refresh", "--before", "trash"], lambda d: top(d)["rightBarButtonItems"] == ["refresh", "trash"]),
    (["right", "remove", "trash"], lambda d: top(d)["rightBarButtonItems"] == ["refresh"]),
    (["left", "set", "edit"], lambda d: top(d)["leftBarButtonItems"] == ["edit"]),
    (["left", "clear"], lambda d: top(d)["leftBarButtonItems"] == []),
    (["item", "trash", "--disabled"], lambda d: item(d, "trash")["enabled"] is False),
    (["item", "trash", "--enabled", "--tint", "#ff0000"], lambda d: item(d, "trash")["enabled"] is True and item(d, "trash")["tintColor"] == "#FF0000"),
    (["back-button", "refresh", "--item", "inbox"], lambda d: d["navigationBar"]["items"][0]["backBarButtonItem"] == "refresh"),
    (["toolbar", "hide"], lambda d: d["toolbar"]["hidden"] is True),
    (["toolbar", "show"], lambda d: d["toolbar"]["hidden"] is False),
    (["toolbar", "remove", "flex"], lambda d: d["toolbar"]["items"] == ["refresh", "trash"]),
    (["appearance", "navigation-bar", "--style", "black", "--tint", "#00ff00"],
     lambda d: d["navigationBar"]["appearance"]["barStyle"] == "black" and d["navigationBar"]["appearance"]["tintColor"] == "#00FF00"),
    (["pop", "--expect", "message"], lambda d: top(d)["id"] == "inbox"),
    (["push", "Detail", "--id", "detail"], lambda d: top(d)["id"] == "detail"),
    (["pop-to", "inbox"], lambda d: top(d)["id"] == "inbox"),
    (["delete-item", "trash"], lambda d: all(i["id"] != "trash" for i in d["barButtonItems"]) and "trash" not in d["toolbar"]["items"]),
    (["set-stack", "home=Home", "settings=Settings"], lambda d: [i["id"] for i in d["navigationBar"]["items"]] == ["home", "settings"]),
]


def test_every_subcommand_changes_what_get_shows(navd, fresh_scene):
    before = None
    for args, check in STEPS:
        ok(navd, fresh_scene, *args)
        after = state(navd, fresh_scene)
        assert check(after), f"after navctl {' '.join(args)}: {json.dumps(after)[:2000]}"
        assert after != before, f"navctl {' '.join(args)} changed nothing"
        before = after


def test_apply_reads_a_batch_from_stdin_atomically(navd, fresh_scene):
    ops = [{"op": "defineBarButtonItem", "barButtonItem": {"id": "a", "title": "A"}},
           {"op": "push", "item": {"id": "root", "title": "Root", "rightBarButtonItems": ["a"]}}]
    ok(navd, fresh_scene, "apply", "-", stdin=json.dumps(ops))
    assert top(state(navd, fresh_scene))["rightBarButtonItems"] == ["a"]
    bad = ops[:1] + [{"op": "pop"}]
    result = navctl(navd, fresh_scene, "apply", "-", stdin=json.dumps([{"op": "defineBarButtonItem", "barButtonItem": {"id": "b"}}, {"op": "pop"}]))
    assert result.returncode == 1 and "CannotPopRoot" in result.stderr
    assert all(i["id"] != "b" for i in state(navd, fresh_scene)["barButtonItems"]), "a failed batch left a trace"
    del bad


def test_generated_ids_are_printed(navd, fresh_scene):
    out = ok(navd, fresh_scene, "push", "Café Menu")
    assert out.strip() == "cafe-menu"
    assert top(state(navd, fresh_scene))["id"] == "cafe-menu"


def test_exit_codes_for_each_failure_class(navd, fresh_scene, tmp_path):
    ok(navd, fresh_scene, "push", "Root", "--id", "root")
    usage = navctl(navd, fresh_scene, "psuh", "X")
    assert usage.returncode == 2 and "push" in usage.stderr, usage.stderr
    refused = navctl(navd, fresh_scene, "pop")
    assert refused.returncode == 1 and "io.navd.CannotPopRoot" in refused.stderr, refused.stderr
    conflict = navctl(navd, fresh_scene, "pop", "--expect", "someone-else")
    assert conflict.returncode == 4 and "io.navd.Conflict" in conflict.stderr, conflict.stderr
    stale = navctl(navd, fresh_scene, "--if-version", "0", "title", "Stale")
    assert stale.returncode == 4, stale.stderr
    missing = tmp_path / "nothing-here.sock"
    unreachable = subprocess.run([str(NAVCTL), "--socket", str(missing), "get"], capture_output=True, text=True, timeout=20)
    assert unreachable.returncode == 3 and str(missing) in unreachable.stderr and "navd" in unreachable.stderr, unreachable.stderr


def test_watch_json_streams_one_line_per_update_in_order(navd, fresh_scene):
    ok(navd, fresh_scene, "push", "Root", "--id", "root")
    env = dict(os.environ, NAVD_SOCKET=navd.socket_path)
    watcher = subprocess.Popen([str(NAVCTL), "--scene", fresh_scene, "watch", "--json"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        first = json.loads(watcher.stdout.readline())
        assert first["kind"] == "snapshot"
        version = first["version"]
        for i in range(5):
            ok(navd, fresh_scene, "title", f"Title {i}")
        deadline = time.monotonic() + 20
        for i in range(5):
            assert time.monotonic() < deadline
            line = json.loads(watcher.stdout.readline())
            assert line["kind"] == "update"
            assert line["fromVersion"] == version and line["toVersion"] == version + 1, line
            version = line["toVersion"]
    finally:
        watcher.kill()
        watcher.wait(timeout=10)


def test_actions_prints_activations(navd, fresh_scene):
    ok(navd, fresh_scene, "item", "compose", "--title", "Compose", "--action", "mail.compose")
    ok(navd, fresh_scene, "push", "Inbox", "--id", "inbox", "--right", "compose")
    env = dict(os.environ, NAVD_SOCKET=navd.socket_path)
    watcher = subprocess.Popen([str(NAVCTL), "--scene", fresh_scene, "actions", "--json"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        # The first line says the watch is registered (PROTOCOL §3 WatchActions).
        assert json.loads(watcher.stdout.readline())["kind"] == "watching"
        out = ok(navd, fresh_scene, "activate", "compose")
        assert "delivered to 1 watcher" in out, out
        line = json.loads(watcher.stdout.readline())
        assert line["item"] == "compose" and line["action"] == "mail.compose"
    finally:
        watcher.kill()
        watcher.wait(timeout=10)


def test_show_draws_the_mail_walkthrough(navd, fresh_scene):
    for args in (["item", "edit", "--system", "edit"], ["item", "compose", "--system", "compose"],
                 ["push", "Inbox", "--id", "inbox", "--left", "edit", "--right", "compose"],
                 ["push", "Message", "--id", "message"]):
        ok(navd, fresh_scene, *args)
    drawing = ok(navd, fresh_scene, "show", "--width", "60", "--ascii")
    assert "< Inbox" in drawing and "Message" in drawing, drawing
    assert all(len(line) == 60 for line in drawing.splitlines() if line.startswith("+")), drawing


def test_info_prints_the_protocol_version(navd, fresh_scene):
    """Issue 13: `navctl info` prints GetServerInfo's protocolVersion string, not `?`."""
    assert "protocol:     1.0\n" in ok(navd, fresh_scene, "info")


@pytest.mark.parametrize("args", [
    ["--timeout", "1e300", "get"], ["--timeout", "1e20", "get"], ["--if-version", "99999999999999999999", "pop"],
    ["--if-version", "9007199254740993", "pop"], ["show", "--width", "99999999999999999999"],
    ["item", "x", "--tag", "1e300"], ["layout", "--width", "1e300"],
])
def test_numeric_options_out_of_range_are_usage_errors_not_crashes(navd, fresh_scene, args):
    """Issue 13: every numeric option is bounded before it is converted; exit 2 (usage), never a trap."""
    result = navctl(navd, fresh_scene, *args)
    assert result.returncode == 2, f"exit {result.returncode}: {result.stderr}"
    assert "needs" in result.stderr
