"""Examples/StatusBar, the outside package that uses NavClient (issue 13): built by
scripts/test (`swift build --package-path Examples/StatusBar`), run here against a real
navd. Its mutator writes the stack depth into the top item's prompt, then it prints one
status line per version."""

from __future__ import annotations

import os
import select
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
STATUSBAR = REPO / "Examples" / "StatusBar" / ".build" / "debug" / "StatusBar"


def line_of(process, timeout: float = 10.0) -> str:
    """The next output line, within `timeout` seconds (every wait in the suite is bounded)."""
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    assert ready, f"StatusBar printed nothing within {timeout} s"
    return process.stdout.readline()


def test_status_bar_follows_a_scene_and_mutates_through_the_client_library(navd, fresh_scene):
    if not STATUSBAR.exists():
        pytest.fail(f"{STATUSBAR} not built; run `swift build --package-path Examples/StatusBar`")
    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [
            {"op": "defineBarButtonItem", "barButtonItem": {"id": "edit", "systemItem": "edit"}},
            {"op": "push", "item": {"id": "inbox", "title": "Inbox", "leftBarButtonItems": ["edit"]}},
            {"op": "push", "item": {"id": "message", "title": "Message"}}]})
        process = subprocess.Popen([str(STATUSBAR), fresh_scene, "--count"], stdout=subprocess.PIPE, text=True, bufsize=1,
                                   env=dict(os.environ, NAVD_SOCKET=navd.socket_path))
        try:
            # The mutation (version 2) comes before the subscription's snapshot, and the
            # prompt it wrote is on the line (issue 29: it never was).
            assert line_of(process) == "v2  2 screens / ‹ Inbox | Message\n"
            state = connection.call("io.navd.GetState", {"scene": fresh_scene})["state"]
            assert state["navigationBar"]["items"][-1]["prompt"] == "2 screens"
            connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [{"op": "pop"}]})
            assert line_of(process) == "v3  Inbox | [edit]\n"
        finally:
            process.kill()
            process.wait(5)
