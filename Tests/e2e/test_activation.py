"""Activation (PROTOCOL.md §3 Activate / WatchActions; SEMANTICS R58–R59):
Activate delivers the item's action to every WatchActions caller and, as an
`activate` event, to the scene's subscribers; it changes no state; items not
shown (hidden bar, overflowed, not on the top item), disabled, or spaces are
`ItemNotActivatable`."""

from __future__ import annotations

import pytest

from navd_fixture import VarlinkError

ITEMS = [
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "edit", "systemItem": "edit", "action": "mail.edit"}},
    {"op": "defineBarButtonItem",
     "barButtonItem": {"id": "compose", "systemItem": "compose", "action": "mail.compose", "tag": 42}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "plain", "title": "Plain"}},  # no action
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "off", "title": "Off", "enabled": False, "action": "x"}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "flex", "systemItem": "flexibleSpace"}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "fixed", "systemItem": "fixedSpace", "width": 10}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "trash", "systemItem": "trash", "action": "mail.trash"}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "deep", "title": "Deep", "action": "deep"}},
] + [
    {"op": "defineBarButtonItem", "barButtonItem": {"id": f"wide{i}", "title": f"A rather wide button {i}",
                                                     "action": f"wide{i}"}}
    for i in range(4)
] + [
    {"op": "push", "item": {"id": "mailboxes", "title": "Mailboxes", "rightBarButtonItems": ["deep"]}},
    {"op": "push", "item": {"id": "inbox", "title": "Inbox", "leftBarButtonItems": ["edit"],
                            "rightBarButtonItems": ["compose", "plain", "off", "wide0", "wide1", "wide2", "wide3"]}},
    {"op": "setToolbarItems", "items": ["trash", "flex", "fixed"]},
]


@pytest.fixture
def scene(navd, fresh_scene):
    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": ITEMS})
    return fresh_scene


def state_of(navd, scene):
    with navd.connect() as connection:
        return connection.call("io.navd.GetState", {"scene": scene})


def test_activate_reaches_watchers_and_subscribers(navd, scene):
    before = state_of(navd, scene)
    watchers = [navd.connect() for _ in range(2)]
    subscribers = [navd.connect() for _ in range(2)]
    try:
        for watcher in watchers:
            watcher.send("io.navd.WatchActions", {"scene": scene}, more=True)
        for subscriber, view in zip(subscribers, ["state", "layout"]):
            subscriber.send("io.navd.Subscribe", {"scene": scene, "view": view}, more=True)
            assert subscriber.recv()["parameters"]["kind"] == "snapshot"
        # PROTOCOL.md §3 WatchActions: the first reply says the watch is registered.
        for watcher in watchers:
            assert watcher.recv(timeout=5)["parameters"] == {"kind": "watching", "scene": scene,
                                                             "version": before["version"]}
        with navd.connect() as connection:
            sequence = [("compose", "mail.compose", 42), ("edit", "mail.edit", 0), ("plain", None, 0),
                        ("trash", "mail.trash", 0)]
            for item, action, tag in sequence:
                reply = connection.call("io.navd.Activate", {"scene": scene, "item": item})
                assert reply == {"action": action, "watchers": 2}
        for watcher in watchers:
            for item, action, tag in sequence:
                message = watcher.recv(timeout=5)
                assert message["continues"] is True
                assert message["parameters"] == {"kind": "activation", "scene": scene, "item": item,
                                                 "action": action, "tag": tag, "version": before["version"]}
        for subscriber in subscribers:
            for item, action, tag in sequence:
                message = subscriber.recv(timeout=5)["parameters"]
                assert message == {"kind": "events", "version": before["version"],
                                   "events": [{"type": "activate", "item": item, "action": action, "tag": tag}]}
        # No state change, no version change, no update: the next message every stream
        # receives is the marker activation sent now (streams are in order).
        assert state_of(navd, scene) == before
        with navd.connect() as connection:
            assert connection.call("io.navd.Activate", {"scene": scene, "item": "edit"})["watchers"] == 2
        for stream in subscribers + watchers:
            message = stream.recv(timeout=5)["parameters"]
            assert message.get("item", (message.get("events") or [{}])[0].get("item")) == "edit", message
            assert message.get("kind") in ("activation", "events"), "an update arrived after an activation"
    finally:
        for connection in watchers + subscribers:
            connection.close()


@pytest.mark.parametrize("case", ["disabled", "hidden_navigation_bar", "hidden_toolbar", "overflowed",
                                  "not_on_top_item", "flexible_space", "fixed_space", "unknown"])
def test_item_not_activatable(navd, scene, case):
    parameters = {"scene": scene}
    setup = []
    expected = "io.navd.ItemNotActivatable"
    if case == "disabled":
        parameters["item"] = "off"
    elif case == "hidden_navigation_bar":
        parameters["item"] = "compose"
        setup = [{"op": "setBarHidden", "bar": "navigationBar", "hidden": True}]
    elif case == "hidden_toolbar":
        parameters["item"] = "trash"
        setup = [{"op": "setBarHidden", "bar": "toolbar", "hidden": True}]
    elif case == "overflowed":
        parameters["item"] = "wide3"
        parameters["width"] = 320
    elif case == "not_on_top_item":
        parameters["item"] = "deep"
    elif case == "flexible_space":
        parameters["item"] = "flex"
    elif case == "fixed_space":
        parameters["item"] = "fixed"
    elif case == "unknown":
        parameters["item"] = "nothing"
        expected = "io.navd.ItemNotFound"
    with navd.connect() as connection:
        if setup:
            connection.call("io.navd.Mutate", {"scene": scene, "ops": setup})
        if case == "overflowed":
            layout = connection.call("io.navd.GetLayout", {"scene": scene, "width": 320})["layout"]
            assert "wide3" in [item["id"] for item in layout["navigationBar"]["overflow"]], "test setup"
        before = connection.call("io.navd.GetState", {"scene": scene})
        # A marker item that is activatable in this case; its delivery brackets the refusal.
        marker = "trash" if case == "hidden_navigation_bar" else "compose"
        watcher = navd.connect()
        try:
            watcher.send("io.navd.WatchActions", {"scene": scene}, more=True)
            assert watcher.recv(timeout=5)["parameters"]["kind"] == "watching"
            with pytest.raises(VarlinkError) as raised:
                connection.call("io.navd.Activate", parameters)
            assert raised.value.name == expected
            assert raised.value.parameters.get("message")
            assert connection.call("io.navd.Activate", {"scene": scene, "item": marker})["watchers"] == 1
            # The watcher's next message is the marker: the refused activation was not delivered.
            assert watcher.recv(timeout=5)["parameters"]["item"] == marker, "a refused activation was delivered"
        finally:
            watcher.close()
        assert connection.call("io.navd.GetState", {"scene": scene}) == before
        # The same item, made activatable again, is delivered (for the cases that can be undone).
        if case == "overflowed":
            assert connection.call("io.navd.Activate", {"scene": scene, "item": "wide3"})["action"] == "wide3"
        if case == "hidden_toolbar":
            connection.call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "setBarHidden", "bar": "toolbar", "hidden": False}]})
            assert connection.call("io.navd.Activate", {"scene": scene, "item": "trash"})["action"] == "mail.trash"
        if case == "disabled":
            connection.call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "updateBarButtonItem", "barButtonItem": "off", "set": {"enabled": True}}]})
            assert connection.call("io.navd.Activate", {"scene": scene, "item": "off"})["action"] == "x"


def test_activate_in_unknown_scene(navd):
    with navd.connect() as connection:
        with pytest.raises(VarlinkError) as raised:
            connection.call("io.navd.Activate", {"scene": "no-such-scene-xyz", "item": "edit"})
        assert raised.value.name == "io.navd.SceneNotFound"


def test_watch_actions_requires_more(navd, scene):
    with navd.connect() as connection:
        reply = connection.call_raw("io.navd.WatchActions", {"scene": scene})
        assert reply["error"] == "org.varlink.service.ExpectedMore"
