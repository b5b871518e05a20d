"""Python's reference Varlink tooling (the `varlink` package from PyPI) works
against navd unchanged (issue 3, "Tests"; PROTOCOL.md §8).

The CLI exits 0 even when the call gets an error reply (it prints the error on
stderr), so every test asserts on what was printed, not only on the exit code.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time

import varlink

from navd_fixture import protocol_file

CLI_TIMEOUT = 20.0


def cli(*args: str, timeout: float = CLI_TIMEOUT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "varlink.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def call(navd, method: str, parameters: dict | None = None) -> subprocess.CompletedProcess:
    args = ["call", f"{navd.address}/io.navd.{method}"]
    if parameters is not None:
        args.append(json.dumps(parameters))
    return cli(*args)


def reply_of(result: subprocess.CompletedProcess) -> dict:
    """The single JSON reply the CLI printed; fails on an error on stderr."""
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", f"error printed: {result.stderr}"
    return json.loads(result.stdout)


class StreamingCli:
    """`varlink.cli call -m …` running in the background; reads the JSON objects it
    prints, each read bounded in time, and terminates it by its pid."""

    def __init__(self, navd, method: str, parameters: dict):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "varlink.cli", "call", "-m", f"{navd.address}/io.navd.{method}",
             json.dumps(parameters)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.text = ""
        self.decoder = json.JSONDecoder()

    def next_object(self, timeout: float = CLI_TIMEOUT) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            stripped = self.text.lstrip()
            if stripped:
                try:
                    value, end = self.decoder.raw_decode(stripped)
                    self.text = stripped[end:]
                    return value
                except json.JSONDecodeError:
                    pass  # incomplete: read more
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"the CLI printed no complete JSON object in {timeout} s: {self.text!r}")
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    err = self.process.stderr.read().decode(errors="replace")
                    raise AssertionError(f"the CLI exited ({self.process.poll()}) early; stderr: {err}")
                self.text += chunk.decode()

    def terminate(self) -> str:
        """Stops the CLI (by its pid) and returns what it printed on stderr."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
        try:
            _, err = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            _, err = self.process.communicate(timeout=10)
        return err.decode(errors="replace")


def mutate_raw(navd, scene: str, ops: list) -> dict:
    with navd.connect() as connection:
        return connection.call("io.navd.Mutate", {"scene": scene, "ops": ops})


MAIL_OPS = [
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "edit", "systemItem": "edit"}},
    {"op": "defineBarButtonItem",
     "barButtonItem": {"id": "compose", "systemItem": "compose", "action": "mail.compose", "tag": 7}},
    {"op": "push", "item": {"id": "inbox", "title": "Inbox", "leftBarButtonItems": ["edit"],
                            "rightBarButtonItems": ["compose"]}},
]


def test_info(navd):
    result = cli("info", navd.address)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "Vendor: navd" in result.stdout
    assert "Product: navd" in result.stdout
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert "io.navd" in lines
    assert "org.varlink.service" in lines


def test_help_prints_the_interface_file(navd):
    result = cli("help", f"{navd.address}/io.navd")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    expected = protocol_file("io.navd.varlink").read_text()
    assert result.stdout.rstrip("\n") == expected.rstrip("\n")


def test_get_interface_description_is_the_protocol_file_verbatim(navd):
    """PROTOCOL.md §1: served verbatim, byte for byte, its final newline included (issue 13)."""
    expected = protocol_file("io.navd.varlink").read_text()
    assert expected.endswith("\n")
    # Raw socket.
    with navd.connect() as connection:
        description = connection.call("org.varlink.service.GetInterfaceDescription", {"interface": "io.navd"})
    assert description["description"] == expected
    # The varlink package's client (which also parses it: no `any`, valid syntax).
    with varlink.Client(address=navd.address) as client:
        with client.open("org.varlink.service") as service:
            reply = service.GetInterfaceDescription("io.navd")
            assert reply["description"] == expected
            info = service.GetInfo()
            assert "io.navd" in info["interfaces"]
        interface = client.get_interface("io.navd")
        assert {"GetServerInfo", "ListScenes", "GetState", "GetLayout", "Subscribe", "Mutate", "Activate",
                "WatchActions"} <= set(interface.members)


def test_call_get_server_info(navd):
    reply = reply_of(call(navd, "GetServerInfo"))
    assert reply["protocolVersion"] == "1.0"
    assert reply["pid"] == navd.pid
    assert reply["connections"] >= 1
    for key in ("version", "uptimeSeconds", "scenes", "subscribers"):
        assert key in reply


def test_call_list_scenes(navd):
    reply = reply_of(call(navd, "ListScenes"))
    names = [scene["name"] for scene in reply["scenes"]]
    assert "main" in names
    assert names == sorted(names)


def test_call_mutate_get_state_get_layout(navd, fresh_scene):
    reply = reply_of(call(navd, "Mutate", {"scene": fresh_scene, "ops": MAIL_OPS}))
    assert reply == {"version": 1, "overwritten": [], "baseVersionExpired": False, "replayed": False, "created": True}

    state = reply_of(call(navd, "GetState", {"scene": fresh_scene}))
    assert state["version"] == 1
    assert [item["id"] for item in state["state"]["navigationBar"]["items"]] == ["inbox"]

    layout = reply_of(call(navd, "GetLayout", {"scene": fresh_scene}))
    assert layout["version"] == 1
    assert layout["layout"]["navigationBar"]["topItem"] == "inbox"
    assert "x" not in layout["layout"]["navigationBar"]["right"][0]

    layout = reply_of(call(navd, "GetLayout", {"scene": fresh_scene, "width": 375}))
    assert layout["layout"]["navigationBar"]["right"][0]["id"] == "compose"
    assert "x" in layout["layout"]["navigationBar"]["right"][0]

    # The same documents as a raw-socket client gets.
    with navd.connect() as connection:
        assert connection.call("io.navd.GetState", {"scene": fresh_scene}) == state


def test_call_error_goes_to_stderr(navd):
    result = call(navd, "GetState", {"scene": "no-such-scene-anywhere"})
    assert result.returncode == 0  # the CLI's habit; the error is on stderr
    assert result.stdout.strip() == ""
    assert "io.navd.SceneNotFound" in result.stderr

    result = call(navd, "Mutate", {"scene": "main", "ops": []})
    assert "io.navd.InvalidMutation" in result.stderr
    assert result.stdout.strip() == ""


def test_call_activate(navd, fresh_scene):
    reply_of(call(navd, "Mutate", {"scene": fresh_scene, "ops": MAIL_OPS}))
    reply = reply_of(call(navd, "Activate", {"scene": fresh_scene, "item": "compose"}))
    assert reply == {"action": "mail.compose", "watchers": 0}
    result = call(navd, "Activate", {"scene": fresh_scene, "item": "nope"})
    assert "io.navd.ItemNotFound" in result.stderr


def test_call_more_subscribe(navd, fresh_scene):
    mutate_raw(navd, fresh_scene, MAIL_OPS)
    stream = StreamingCli(navd, "Subscribe", {"scene": fresh_scene, "view": "state"})
    try:
        snapshot = stream.next_object()
        assert snapshot["kind"] == "snapshot"
        assert snapshot["version"] == 1
        assert snapshot["view"] == "state"
        mutate_raw(navd, fresh_scene, [{"op": "updateNavigationItem", "item": "inbox", "set": {"title": "Mail"}}])
        update = stream.next_object()
        assert update["kind"] == "update"
        assert (update["fromVersion"], update["toVersion"]) == (1, 2)
        assert update["patch"] == [{"op": "replace", "path": "/navigationBar/items/0/title", "value": "Mail"}]
    finally:
        err = stream.terminate()
    assert "io.navd." not in err and "org.varlink." not in err, f"the CLI printed an error: {err}"

    # Layout view with a width, the default view.
    stream = StreamingCli(navd, "Subscribe", {"scene": fresh_scene, "width": 320})
    try:
        snapshot = stream.next_object()
        assert snapshot["kind"] == "snapshot"
        assert snapshot["view"].startswith("layout@320")
        assert snapshot["document"]["navigationBar"]["centre"]["title"] == "Mail"
    finally:
        stream.terminate()


def test_call_more_watch_actions(navd, fresh_scene):
    mutate_raw(navd, fresh_scene, MAIL_OPS)
    stream = StreamingCli(navd, "WatchActions", {"scene": fresh_scene})
    try:
        # PROTOCOL.md §3 WatchActions: the first reply says the watch is registered.
        assert stream.next_object() == {"kind": "watching", "scene": fresh_scene, "version": 1}
        with navd.connect() as connection:
            reply = connection.call("io.navd.Activate", {"scene": fresh_scene, "item": "compose"})
        assert reply == {"action": "mail.compose", "watchers": 1}
        action = stream.next_object()
        assert action == {"kind": "activation", "scene": fresh_scene, "item": "compose", "action": "mail.compose",
                          "tag": 7, "version": 1}
    finally:
        stream.terminate()


def test_call_streaming_method_without_more(navd):
    result = call(navd, "Subscribe", {"scene": "main"})
    assert "org.varlink.service.ExpectedMore" in result.stderr
