"""Front ends share one stack: two navd-gtk windows of different widths, `navctl watch` in tmux
and a python Varlink subscriber all follow one scene of one navd. A click in one window reaches
every one of them (the back button pops the stack everywhere; an item's action reaches a
WatchActions watcher), a resize reflows only the resized window, and a restart of navd shows
as "reconnecting" and then resumes."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from conftest import NAVCTL, mutate
from scenes import MAIL

SCENE = "shared"


def frames_until(connection, predicate, timeout: float = 10.0) -> dict:
    """Reads Subscribe or WatchActions replies until one satisfies `predicate`."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, "no matching reply in time"
        reply = connection.recv(timeout=remaining)
        assert "error" not in reply, reply
        if predicate(reply["parameters"]):
            return reply["parameters"]


class Tmux:
    """`navctl watch` in a private tmux server; the pane's text is what a user would read."""

    def __init__(self, socket_path: str, tmp_path):
        self.server = str(tmp_path / "tmux.sock")
        env = dict(os.environ, NAVD_SOCKET=socket_path, TERM="xterm-256color")
        subprocess.run(["tmux", "-S", self.server, "new-session", "-d", "-x", "90", "-y", "20",
                        f"{NAVCTL} watch --wait --scene {SCENE}"], env=env, check=True, timeout=10)

    def pane(self) -> str:
        return subprocess.run(["tmux", "-S", self.server, "capture-pane", "-p"], capture_output=True, text=True,
                              timeout=10).stdout

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pane = self.pane()
            if text in pane:
                return pane
            time.sleep(0.1)
        raise AssertionError(f"navctl watch never showed {text!r}; pane:\n{self.pane()}")

    def close(self):
        subprocess.run(["tmux", "-S", self.server, "kill-server"], capture_output=True, timeout=10)


@pytest.fixture
def watch(navd, tmp_path):
    if not NAVCTL.exists():
        pytest.fail(f"{NAVCTL} not built; run `swift build --product navctl`")
    pane = Tmux(navd.socket_path, tmp_path)
    yield pane
    pane.close()


def test_two_windows_a_terminal_and_a_varlink_client_follow_one_stack(navd, navd_gtk, watch):
    version = mutate(navd, SCENE, MAIL)
    subscriber = navd.connect()
    subscriber.send("io.navd.Subscribe", {"scene": SCENE, "width": 400}, more=True)
    snapshot = frames_until(subscriber, lambda p: p.get("kind") == "snapshot")
    assert snapshot["document"]["navigationBar"]["backButton"]["title"] == "Inbox"
    actions = navd.connect()
    actions.send("io.navd.WatchActions", {"scene": SCENE}, more=True)
    frames_until(actions, lambda p: p.get("kind") == "watching")

    app = navd_gtk("--scene", SCENE, "--width", "375", "--scene", SCENE, "--width", "520")
    app.wait_for_each([rf"drew 1 {SCENE} v{version} at 375", rf"drew 2 {SCENE} v{version} at 520"])
    narrow, wide = app.window(1, SCENE), app.window(2, SCENE)
    app.xdotool("windowmove", "--sync", narrow, "0", "0")
    app.xdotool("windowmove", "--sync", wide, "0", "400")
    watch.wait_for("Message")
    app.drain(0.5)

    # The back button (navd put it at x 8, 20 + 5×8 = 60 wide) of the narrow window.
    app.xdotool("mousemove", "--window", narrow, "30", "22", "click", "1")
    popped = version + 1
    app.wait_for_each([rf"drew 1 {SCENE} v{popped} at 375", rf"drew 2 {SCENE} v{popped} at 520"])
    update = frames_until(subscriber, lambda p: p.get("kind") == "update")
    assert update["toVersion"] == popped
    assert update["events"] == [{"type": "pop", "items": ["message"], "animated": True}]
    pane = watch.wait_for("Inbox")
    assert "Message" not in pane

    # Inbox's compose button: the rightmost item, navd placed it at x = 520 − 8 − 30 in the wide window.
    app.drain(0.5)
    app.xdotool("mousemove", "--window", wide, str(520 - 8 - 15), "22", "click", "1")
    activation = frames_until(actions, lambda p: p.get("kind") == "activation")
    assert (activation["item"], activation["action"]) == ("compose", "mail.compose")
    event = frames_until(subscriber, lambda p: p.get("kind") == "events")
    assert event["events"][0]["item"] == "compose"

    # A resize reflows that window only: a new subscription at its width, nothing for the rest.
    app.drain(0.3)
    app.xdotool("windowsize", "--sync", narrow, "300", "260")
    app.wait_for(rf"drew 1 {SCENE} v{popped} at 300")
    later = app.drain(0.8)
    assert not [line for line in later if line.startswith("drew 2")], later
    assert not subscriber.frame_ready()
    subscriber.close()
    actions.close()


def test_a_restart_shows_disconnected_then_resumes_where_it_was(navd, navd_gtk):
    version = mutate(navd, SCENE, MAIL)
    app = navd_gtk("--scene", SCENE, "--width", "375")
    app.wait_for(rf"drew 1 {SCENE} v{version} at 375")
    navd.stop()
    app.wait_for(r"connection 1 reconnecting")
    navd.start()
    app.wait_for(r"connection 1 connected")
    # Resumed with sinceVersion (and epoch): the next change is an update, drawn at once.
    mutate(navd, SCENE, [{"op": "pop"}])
    app.wait_for(rf"drew 1 {SCENE} v{version + 1} at 375")
