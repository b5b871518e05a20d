"""Protocol checks (PROTOCOL.md §2, §3, §6, §7; CONFLICTS.md): delivery
guarantees, framing details, resume with sinceVersion, idempotent retries, and
the example exchanges of PROTOCOL.md §7 and CONFLICTS.md §6 on the wire."""

from __future__ import annotations

import json
import time

import pytest

from navd_fixture import DEFAULT_TIMEOUT, VarlinkError, encode_call, protocol_file

MAIL = [
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "edit", "systemItem": "edit"}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "compose", "systemItem": "compose",
                                                     "action": "mail.compose"}},
    {"op": "push", "item": {"id": "inbox", "title": "Inbox", "leftBarButtonItems": ["edit"],
                            "rightBarButtonItems": ["compose"]}},
]


def title(item: str, text: str) -> dict:
    return {"op": "updateNavigationItem", "item": item, "set": {"title": text}}


# -- §6 delivery guarantees ---------------------------------------------------

def test_read_your_writes_across_connections(navd, fresh_scene):
    """When Mutate replies with V, GetState / GetLayout on any connection return V or later."""
    scene = fresh_scene
    writers = [navd.connect() for _ in range(3)]
    readers = [navd.connect() for _ in range(3)]
    try:
        writers[0].call("io.navd.Mutate", {"scene": scene, "ops": MAIL})
        for n in range(150):
            writer = writers[n % 3]
            reader = readers[(n + 1) % 3]
            version = writer.call("io.navd.Mutate", {"scene": scene, "ops": [title("inbox", f"T{n}")]})["version"]
            if n % 2:
                seen = reader.call("io.navd.GetState", {"scene": scene})
                assert seen["version"] >= version
                if seen["version"] == version:
                    assert seen["state"]["navigationBar"]["items"][0]["title"] == f"T{n}"
            else:
                seen = reader.call("io.navd.GetLayout", {"scene": scene, "width": 320})
                assert seen["version"] >= version
            scenes = {s["name"]: s for s in reader.call("io.navd.ListScenes")["scenes"]}
            assert scenes[scene]["version"] >= version
    finally:
        for connection in writers + readers:
            connection.close()


@pytest.mark.parametrize("view", ["state", "layout"])
def test_mutate_reply_comes_after_the_subscribers_update(navd, fresh_scene, view):
    """V4 / PROTOCOL.md §3 Mutate: the update is queued before the reply and written in the
    same loop pass, right after it (§2 "Write order"). After each reply, the subscriber's
    update for that version must be readable (bounded wait: 1 s)."""
    scene = fresh_scene
    with navd.connect() as writer, navd.connect() as subscriber:
        writer.call("io.navd.Mutate", {"scene": scene, "ops": MAIL})
        subscriber.send("io.navd.Subscribe", {"scene": scene, "view": view}, more=True)
        assert subscriber.recv()["parameters"]["version"] == 1
        already = 0
        rounds = 100
        for n in range(rounds):
            version = writer.call("io.navd.Mutate", {"scene": scene, "ops": [title("inbox", f"R{n}")]})["version"]
            if subscriber.frame_ready():
                already += 1
            update = subscriber.recv(timeout=1.0)["parameters"]
            assert update["kind"] == "update"
            assert update["toVersion"] == version, "the update for the acknowledged version was not queued first"
        print(f"{already}/{rounds} updates were already readable when the reply was read")
        # Nothing else was queued: the next message is the marker mutation's update.
        marker = writer.call("io.navd.Mutate", {"scene": scene, "ops": [title("inbox", "marker")]})["version"]
        update = subscriber.recv(timeout=5.0)["parameters"]
        assert (update["fromVersion"], update["toVersion"]) == (marker - 1, marker)


def test_pipelined_calls_are_answered_in_order(navd, fresh_scene):
    scene = fresh_scene
    calls = [("io.navd.Mutate", {"scene": scene, "ops": MAIL})]
    for n in range(60):
        kind = n % 4
        if kind == 0:
            calls.append(("io.navd.Mutate", {"scene": scene, "ops": [title("inbox", f"P{n}")]}))
        elif kind == 1:
            calls.append(("io.navd.GetState", {"scene": scene}))
        elif kind == 2:
            calls.append(("io.navd.GetLayout", {"scene": scene, "width": 320}))
        else:
            calls.append(("io.navd.GetState", {"scene": "no-such-scene"}))  # an error in the middle
    with navd.connect() as connection:
        connection.send_raw(b"".join(encode_call(method, parameters) for method, parameters in calls))
        last_version = 0
        for n, (method, parameters) in enumerate(calls):
            reply = connection.recv(timeout=10)
            if parameters["scene"] == "no-such-scene":
                assert reply["error"] == "io.navd.SceneNotFound"
                continue
            body = reply["parameters"]
            if method == "io.navd.Mutate":
                assert body["version"] == last_version + 1
                last_version = body["version"]
            elif method == "io.navd.GetState":
                assert body["version"] == last_version
                assert body["state"]["navigationBar"]["items"][0]["title"] == calls[n - 1][1]["ops"][0]["set"]["title"]
            else:
                assert body["version"] == last_version and "layout" in body


def test_oneway_mutate_is_applied_without_reply(navd, fresh_scene):
    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": MAIL})
        connection.send("io.navd.Mutate", {"scene": fresh_scene, "ops": [title("inbox", "Quiet")]}, oneway=True)
        reply = connection.call("io.navd.GetState", {"scene": fresh_scene})
        assert reply["version"] == 2
        assert reply["state"]["navigationBar"]["items"][0]["title"] == "Quiet"


def test_parameters_absent_null_and_empty_are_the_same(navd):
    with navd.connect() as connection:
        replies = []
        for raw in [b'{"method":"io.navd.ListScenes"}\0', b'{"method":"io.navd.ListScenes","parameters":null}\0',
                    b'{"method":"io.navd.ListScenes","parameters":{}}\0',
                    b'{"method":"io.navd.ListScenes","more":false,"oneway":false,"upgrade":false}\0',
                    b'{"method":"io.navd.ListScenes","org.example.trace":"abc"}\0']:
            connection.send_raw(raw)
            reply = connection.recv()
            assert "error" not in reply, (raw, reply)
            assert "continues" not in reply
            replies.append([s["name"] for s in reply["parameters"]["scenes"]])
        assert all(r == replies[0] for r in replies)


def test_more_on_a_plain_method_gets_one_ordinary_reply(navd):
    with navd.connect() as connection:
        reply = connection.call_raw("io.navd.GetState", {"scene": "main"}, more=True)
        assert "error" not in reply and not reply.get("continues")
        assert "state" in reply["parameters"]
        # The connection is free again for the next call.
        assert "scenes" in connection.call("io.navd.ListScenes")


def test_subscribe_unknown_scene(navd):
    with navd.connect() as connection:
        reply = connection.call_raw("io.navd.Subscribe", {"scene": "no-such-scene-here"}, more=True)
        assert reply["error"] == "io.navd.SceneNotFound"


# -- Subscribe with sinceVersion ------------------------------------------------

def test_subscribe_since_version(navd, fresh_scene):
    scene = fresh_scene
    with navd.connect() as writer:
        writer.call("io.navd.Mutate", {"scene": scene, "ops": MAIL})
        for n in range(5):
            writer.call("io.navd.Mutate", {"scene": scene, "ops": [title("inbox", f"S{n}")]})
        # Held in the log: the updates 3..6, exactly, and no snapshot.
        with navd.connect() as subscriber:
            subscriber.send("io.navd.Subscribe", {"scene": scene, "view": "state", "sinceVersion": 2}, more=True)
            updates = [subscriber.recv()["parameters"] for _ in range(4)]
            assert [u["kind"] for u in updates] == ["update"] * 4
            assert [(u["fromVersion"], u["toVersion"]) for u in updates] == [(2, 3), (3, 4), (4, 5), (5, 6)]
            assert updates[-1]["patch"] == [{"op": "replace", "path": "/navigationBar/items/0/title", "value": "S4"}]
            # Nothing more: the next message is the live update (the positive marker).
            writer.call("io.navd.Mutate", {"scene": scene, "ops": [title("inbox", "live")]})
            live = subscriber.recv()["parameters"]
            assert (live["fromVersion"], live["toVersion"]) == (6, 7)
        # sinceVersion = current: nothing until the next update.
        with navd.connect() as subscriber:
            subscriber.send("io.navd.Subscribe", {"scene": scene, "width": 320, "sinceVersion": 7}, more=True)
            writer.call("io.navd.Mutate", {"scene": scene, "ops": [title("inbox", "next")]})
            update = subscriber.recv()["parameters"]
            assert update["kind"] == "update" and (update["fromVersion"], update["toVersion"]) == (7, 8)
        # Ahead of the scene: a snapshot.
        with navd.connect() as subscriber:
            subscriber.send("io.navd.Subscribe", {"scene": scene, "view": "state", "sinceVersion": 99}, more=True)
            first = subscriber.recv()["parameters"]
            assert first["kind"] == "snapshot" and first["version"] == 8


def test_subscribe_since_version_older_than_the_log_gets_a_snapshot(navd, fresh_scene):
    scene = fresh_scene
    with navd.connect() as writer:
        writer.call("io.navd.Mutate", {"scene": scene, "ops": MAIL})
        batch = b"".join(encode_call("io.navd.Mutate", {"scene": scene, "ops": [title("inbox", f"L{n}")]})
                         for n in range(1100))
        writer.send_raw(batch)
        for _ in range(1100):
            assert "error" not in writer.recv(timeout=10)
        with navd.connect() as subscriber:
            subscriber.send("io.navd.Subscribe", {"scene": scene, "view": "state", "sinceVersion": 1}, more=True)
            first = subscriber.recv()["parameters"]
            assert first["kind"] == "snapshot" and first["version"] == 1101
            assert first["document"]["navigationBar"]["items"][0]["title"] == "L1099"


# -- CONFLICTS.md ---------------------------------------------------------------

def test_conflicts_example_c1(navd, fresh_scene):
    """The worked example of CONFLICTS.md §6, both policies."""
    scene = fresh_scene
    with navd.connect() as setup:
        setup.call("io.navd.Mutate", {"scene": scene, "ops": MAIL})  # version 1
        for n in range(6):  # up to version 7, inbox titled "Inbox"
            setup.call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "setBarHidden", "bar": "toolbar", "hidden": n % 2 == 0}]})
    with navd.connect() as a, navd.connect() as b:
        assert a.call("io.navd.Mutate", {"scene": scene, "clientId": "A", "ops": [title("inbox", "Mail")]})[
            "version"] == 8
        call = {"scene": scene, "clientId": "B", "baseVersion": 7, "ops": [title("inbox", "Post")]}
        refused = b.call_raw("io.navd.Mutate", {**call, "policy": "failOnConflict"})
        assert refused["error"] == "io.navd.Conflict"
        assert refused["parameters"]["currentVersion"] == 8
        assert refused["parameters"]["conflicts"] == [
            {"field": "navigationItem/inbox/title", "currentValue": "Mail", "version": 8}]
        assert a.call("io.navd.GetState", {"scene": scene})["state"]["navigationBar"]["items"][0]["title"] == "Mail"
        reply = b.call("io.navd.Mutate", call)
        assert reply == {"version": 9, "overwritten": [
            {"field": "navigationItem/inbox/title", "previousValue": "Mail", "version": 8}],
            "baseVersionExpired": False, "replayed": False, "created": False}


def test_idempotent_retry_across_reconnect(navd, fresh_scene):
    scene = fresh_scene
    call = {"scene": scene, "clientId": "app-1", "mutationId": "m-1", "ops": MAIL}
    with navd.connect() as connection:
        first = connection.call("io.navd.Mutate", call)
    with navd.connect() as connection:
        again = connection.call("io.navd.Mutate", call)
        assert again == {**first, "replayed": True, "created": False}, "a retry answered from memory created nothing"
        assert connection.call("io.navd.GetState", {"scene": scene})["version"] == first["version"]
        with pytest.raises(VarlinkError) as raised:
            connection.call("io.navd.Mutate", {**call, "ops": [title("inbox", "different")]})
        assert raised.value.name == "io.navd.InvalidMutation"
        assert raised.value.parameters.get("field") == "mutationId"
        # Without clientId the connection is the client: a new connection is a new client.
        plain = {"scene": scene, "mutationId": "m-2", "ops": [title("inbox", "once")]}
        v = connection.call("io.navd.Mutate", plain)["version"]
        assert connection.call("io.navd.Mutate", plain) == {"version": v, "overwritten": [],
                                                            "baseVersionExpired": False, "replayed": True,
                                                            "created": False}
    with navd.connect() as connection:
        assert connection.call("io.navd.Mutate", plain)["replayed"] is False


def test_mutation_id_over_128_bytes_is_limit_exceeded(navd):
    """PROTOCOL.md §5: LimitExceeded covers navd's own `mutationIdBytes` 128 (and
    `clientIdBytes`); an empty id is InvalidMutation (like empty ids, R66)."""
    problems = []
    with navd.connect() as connection:
        for key in ("mutationId", "clientId"):
            reply = connection.call_raw("io.navd.Mutate", {"scene": "main", key: "x" * 129, "ops": [
                {"op": "setBarHidden", "bar": "toolbar", "hidden": False}]})
            if reply.get("error") != "io.navd.LimitExceeded" or reply["parameters"].get("max") != 128:
                problems.append(f"{key} of 129 bytes: {json.dumps(reply)[:200]}")
            reply = connection.call_raw("io.navd.Mutate", {"scene": "main", key: "", "ops": [
                {"op": "setBarHidden", "bar": "toolbar", "hidden": False}]})
            if reply.get("error") != "io.navd.InvalidMutation":
                problems.append(f"empty {key}: {json.dumps(reply)[:200]}")
            reply = connection.call_raw("io.navd.Mutate", {"scene": "main", key: "x" * 128, "ops": [
                {"op": "setBarHidden", "bar": "toolbar", "hidden": False}]})
            if "error" in reply:
                problems.append(f"{key} of 128 bytes refused: {json.dumps(reply)[:200]}")
    assert not problems, "\n".join(problems)


def test_invalid_mutation_names_the_op_index(navd):
    """PROTOCOL.md §3 Mutate: errors carry `opIndex` and `field` naming the failing op
    and field (SEMANTICS R6) — also when the op itself is malformed."""
    bad_ops = {
        "unknown field": {"op": "setBarHidden", "bar": "toolbar", "hidden": True, "colour": "red"},
        "unknown op": {"op": "teleport"},
        "bad enum": {"op": "setBarHidden", "bar": "statusBar", "hidden": True},
        "missing field": {"op": "setBarHidden", "bar": "toolbar"},
        "bad colour": {"op": "setSceneTint", "tintColor": "red"},
        "bad id": {"op": "push", "item": {"id": "bad id"}},
    }
    ok = {"op": "setBarHidden", "bar": "toolbar", "hidden": False}
    problems = []
    with navd.connect() as connection:
        for name, op in bad_ops.items():
            reply = connection.call_raw("io.navd.Mutate", {"scene": "main", "ops": [ok, op]})
            parameters = reply.get("parameters", {})
            if reply.get("error") != "io.navd.InvalidMutation" or parameters.get("opIndex") != 1 \
                    or not str(parameters.get("field", "")).startswith("ops[1]"):
                problems.append(f"{name}: {json.dumps(reply)}")
    assert not problems, "\n".join(problems)


# -- PROTOCOL.md §7 examples on the wire ------------------------------------------

def test_protocol_examples_on_the_wire(navd, fresh_scene):
    scene = fresh_scene
    with navd.connect() as connection:
        # Build a mail app's bar in one mutation (the documented call, with line breaks).
        connection.send_raw((
            '{"method":"io.navd.Mutate","parameters":{"scene":"%s","ops":[\n'
            '    {"op":"defineBarButtonItem","barButtonItem":{"id":"edit","systemItem":"edit"}},\n'
            '    {"op":"defineBarButtonItem","barButtonItem":{"id":"compose","systemItem":"compose","action":"mail.compose"}},\n'
            '    {"op":"push","item":{"id":"inbox","title":"Inbox","leftBarButtonItems":["edit"],'
            '"rightBarButtonItems":["compose"]}}]}}\0' % scene).encode())
        assert connection.recv_frame() == (
            # The documented call is on main, which always exists; this scene is new: created.
            b'{"parameters":{"baseVersionExpired":false,"created":true,"overwritten":[],"replayed":false,"version":1}}')
        # Follow the layout at 375, then push a screen from another connection.
        with navd.connect() as follower, navd.connect() as other:
            follower.send_raw(b'{"method":"io.navd.Subscribe","parameters":{"scene":"%s","width":375},"more":true}\0'
                              % scene.encode())
            snapshot = follower.recv()
            assert snapshot["continues"] is True
            assert snapshot["parameters"]["kind"] == "snapshot" and snapshot["parameters"]["version"] == 1
            assert snapshot["parameters"]["view"] in ("layout@375.0", "layout@375")
            other.call("io.navd.Mutate", {"scene": scene, "ops": [
                {"op": "push", "item": {"id": "message", "title": "Message"}, "animated": True}]})
            update = follower.recv()["parameters"]
            assert update["animated"] is True and update["kind"] == "update"
            assert update["events"] == [{"animated": True, "item": "message", "type": "push"}]
            assert (update["fromVersion"], update["toVersion"]) == (1, 2)
        connection.call("io.navd.Mutate", {"scene": scene, "ops": [{"op": "pop"}]})
        # A rejected mutation.
        reply = connection.call_raw("io.navd.Mutate", {"scene": scene, "ops": [{"op": "pop"}]})
        assert reply == {"error": "io.navd.CannotPopRoot", "parameters": {
            "field": "ops[0].op", "message": 'cannot pop the root item "inbox"; use setStack to clear', "opIndex": 0}}
        # A bad parameter.
        connection.send_raw(b'{"method":"io.navd.GetLayout","parameters":{"scene":"main","width":"wide"}}\0')
        assert connection.recv() == {"error": "org.varlink.service.InvalidParameter",
                                     "parameters": {"parameter": "width"}}


def test_get_info_matches_the_documented_example(navd):
    """PROTOCOL.md §7 "Discover the service" shows the exact GetInfo reply (read from the doc itself)."""
    text = protocol_file("PROTOCOL.md").read_text()
    line = next(l for l in text.splitlines() if l.startswith('← {"parameters":{"interfaces"'))
    documented = json.loads(line[len("← "):].removesuffix("\\0"))
    with navd.connect() as connection:
        connection.send_raw(b'{"method":"org.varlink.service.GetInfo"}\0')
        reply = connection.recv()
    documented["parameters"]["version"] = reply["parameters"]["version"]
    assert reply == documented


def test_server_info_counts(navd, fresh_scene):
    with navd.connect() as connection:
        connection.call("io.navd.Mutate", {"scene": fresh_scene, "ops": MAIL})
        before = connection.call("io.navd.GetServerInfo")
        watchers = [navd.connect() for _ in range(3)]
        try:
            for watcher in watchers[:2]:
                watcher.send("io.navd.Subscribe", {"scene": fresh_scene}, more=True)
                watcher.recv()
            watchers[2].send("io.navd.WatchActions", {"scene": fresh_scene}, more=True)
            deadline = time.monotonic() + DEFAULT_TIMEOUT
            while True:
                info = connection.call("io.navd.GetServerInfo")
                if info["subscribers"] >= before["subscribers"] + 3:
                    break
                assert time.monotonic() < deadline, (before, info)
                time.sleep(0.02)
            assert info["connections"] >= before["connections"] + 3
            assert info["pid"] == navd.pid and info["protocolVersion"] == "1.0"
            assert info["uptimeSeconds"] >= before["uptimeSeconds"]
        finally:
            for watcher in watchers:
                watcher.close()
