"""Issue 13: the places where Protocol/ used to leave a client guessing, each
answered in PROTOCOL.md §9 (or the section named) and checked here on the wire.

Every test names the section or rule it checks. Negative checks never sleep:
they wait for a later reply on the same connection (a positive marker)."""

from __future__ import annotations

import json
import re

import pytest

from navd_fixture import Navd, VarlinkError, encode_call, protocol_file, raw_exchange, run_in_child

INBOX = [
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "edit", "systemItem": "edit"}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "compose", "systemItem": "compose"}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "flag", "title": "Flag"}},
    {"op": "push", "item": {"id": "inbox", "title": "Inbox", "leftBarButtonItems": ["edit"],
                            "rightBarButtonItems": ["compose"]}},
]


def error_of(connection, method: str, parameters: dict, **flags) -> tuple[str, dict]:
    reply = connection.call_raw(method, parameters, **flags)
    assert "error" in reply, f"expected an error, got {reply}"
    return reply["error"], reply.get("parameters") or {}


def mutate(connection, scene: str, ops: list, **extra) -> dict:
    return connection.call("io.navd.Mutate", {"scene": scene, "ops": ops, **extra})


# -- §9.1 width ------------------------------------------------------------------

@pytest.mark.parametrize("width", [0, -1, 10000.5, 1e300, "wide", True])
@pytest.mark.parametrize("method", ["GetLayout", "Subscribe", "Activate"])
def test_9_1_width_outside_0_exclusive_to_10000_is_invalid_parameter(navd, fresh_scene, method, width):
    """PROTOCOL §9.1 (SEMANTICS R7): a call's `width` is finite, 0 < width ≤ 10000; anything
    else is org.varlink.service.InvalidParameter {parameter: "width"} for every method."""
    with navd.connect() as connection:
        mutate(connection, fresh_scene, INBOX)
        parameters = {"scene": fresh_scene, "width": width}
        if method == "Activate":
            parameters["item"] = "edit"
        name, details = error_of(connection, f"io.navd.{method}", parameters, more=True if method == "Subscribe" else None)
        assert (name, details) == ("org.varlink.service.InvalidParameter", {"parameter": "width"})


@pytest.mark.parametrize("width", [0.5, 10000])
def test_9_1_width_bounds_that_are_accepted(navd, fresh_scene, width):
    """PROTOCOL §9.1: the smallest widths above 0 and exactly 10000 are accepted (inclusive)."""
    with navd.connect() as connection:
        mutate(connection, fresh_scene, INBOX)
        assert "layout" in connection.call("io.navd.GetLayout", {"scene": fresh_scene, "width": width})


# -- §9.2 the snapshot's view string ---------------------------------------------

@pytest.mark.parametrize("parameters, view", [
    ({}, "layout"),
    ({"view": "layout"}, "layout"),
    ({"view": "state"}, "state"),
    ({"width": 375}, "layout@375.0"),
    ({"width": 320.5}, "layout@320.5"),
    ({"compact": True}, "layout,compact"),
    ({"compact": False, "navigationBarPosition": "top", "toolbarPosition": "bottom"}, "layout"),
    ({"navigationBarPosition": "topAttached"}, "layout,nav=topAttached"),
    ({"toolbarPosition": "top"}, "layout,toolbar=top"),
    ({"width": 375, "compact": True, "navigationBarPosition": "topAttached", "toolbarPosition": "top"},
     "layout@375.0,compact,nav=topAttached,toolbar=top"),
])
def test_9_2_snapshot_view_string(navd, parameters, view):
    """PROTOCOL §9.2: the snapshot's `view` names the view and every metric that differs from
    its default, in a fixed order; the width in Swift's shortest round-trip form (375 → 375.0)."""
    with navd.connect() as connection:
        connection.send("io.navd.Subscribe", {"scene": "main", **parameters}, more=True)
        snapshot = connection.recv()["parameters"]
        assert snapshot["kind"] == "snapshot" and snapshot["view"] == view


# -- §9.3 CONFLICTS V6 -------------------------------------------------------------

def test_9_3_v6_base_version_ahead_is_invalid_mutation_with_current_version(navd, fresh_scene):
    """CONFLICTS V6 / PROTOCOL §9.3: baseVersion above the scene's version is InvalidMutation
    (field baseVersion) carrying currentVersion, a field the IDL's InvalidMutation declares."""
    with navd.connect() as connection:
        mutate(connection, fresh_scene, INBOX)
        name, details = error_of(connection, "io.navd.Mutate", {
            "scene": fresh_scene, "baseVersion": 5, "ops": [{"op": "setBarHidden", "bar": "toolbar", "hidden": True}]})
        assert name == "io.navd.InvalidMutation"
        assert details["field"] == "baseVersion" and details["value"] == "5" and details["currentVersion"] == 1
    idl = protocol_file("io.navd.varlink").read_text()
    declaration = re.search(r"error InvalidMutation \(([^)]*)\)", idl, re.S)
    assert declaration and "currentVersion: ?int" in declaration.group(1)


# -- §9.4 the state document -------------------------------------------------------

def protocol_json_block(marker: str):
    """The ```json block that follows `<!-- marker -->` in PROTOCOL.md."""
    text = protocol_file("PROTOCOL.md").read_text()
    start = text.index(f"<!-- {marker} -->")
    block = text.index("```json\n", start) + len("```json\n")
    return json.loads(text[block:text.index("```", block)])


def test_9_4_empty_state_document_is_semantics_r2(navd, fresh_scene):
    """PROTOCOL §9.4 / SEMANTICS R2: a new scene's state document, exactly."""
    with navd.connect() as connection:
        mutate(connection, fresh_scene, [{"op": "setBarHidden", "bar": "toolbar", "hidden": False}])
        assert connection.call("io.navd.GetState", {"scene": fresh_scene})["state"] == protocol_json_block("empty-state")


def test_9_4_full_state_document_example(navd, fresh_scene):
    """PROTOCOL §9.4: the documented mutation gives exactly the documented state document
    (which defaults are written, background image entries, scene and default item tint)."""
    with navd.connect() as connection:
        mutate(connection, fresh_scene, protocol_json_block("state-example-ops"))
        state = connection.call("io.navd.GetState", {"scene": fresh_scene})["state"]
        assert state == protocol_json_block("state-example-state")


# -- §9.5 updateAppearance backgroundImages --------------------------------------------

def test_9_5_background_images_merge_per_pair_and_null_removes(navd, fresh_scene):
    """PROTOCOL §9.5 (SEMANTICS R51): each entry sets one (position, metrics) pair and keeps
    the others; `image: null` removes that pair's entry; entries are kept in a fixed order."""
    def images(value):
        return {"op": "updateAppearance", "target": "navigationBar", "set": {"backgroundImages": value}}

    bar = {"name": "bar"}
    with navd.connect() as connection:
        mutate(connection, fresh_scene, [images([{"position": "top", "metrics": "default", "image": bar}])])
        mutate(connection, fresh_scene, [images([{"position": "any", "metrics": "compact", "image": {"name": "c"}}])])
        state = connection.call("io.navd.GetState", {"scene": fresh_scene})["state"]
        assert state["navigationBar"]["appearance"]["backgroundImages"] == [
            {"position": "any", "metrics": "compact", "image": {"name": "c", "opaque": True}},
            {"position": "top", "metrics": "default", "image": {"name": "bar", "opaque": True}},
        ]
        mutate(connection, fresh_scene, [images([{"position": "any", "metrics": "compact", "image": None}])])
        state = connection.call("io.navd.GetState", {"scene": fresh_scene})["state"]
        assert state["navigationBar"]["appearance"]["backgroundImages"] == [
            {"position": "top", "metrics": "default", "image": {"name": "bar", "opaque": True}}]
        mutate(connection, fresh_scene, [images([])])  # an empty list changes nothing
        state = connection.call("io.navd.GetState", {"scene": fresh_scene})["state"]
        assert len(state["navigationBar"]["appearance"]["backgroundImages"]) == 1
        mutate(connection, fresh_scene, [images([{"position": "top", "metrics": "default"}])])  # no image: removes
        state = connection.call("io.navd.GetState", {"scene": fresh_scene})["state"]
        assert state["navigationBar"]["appearance"]["backgroundImages"] == []


# -- §9.6 SEMANTICS R24 -------------------------------------------------------------------

def test_9_6_r24_back_bar_button_item_with_empty_title_has_a_title(navd, fresh_scene):
    """SEMANTICS R24 / PROTOCOL §9.6: a title "" is set, so B "has a title": the back button
    shows "" (not the back item's title, not "Back")."""
    with navd.connect() as connection:
        mutate(connection, fresh_scene, [
            {"op": "defineBarButtonItem", "barButtonItem": {"id": "blank", "title": ""}},
            {"op": "push", "item": {"id": "inbox", "title": "Inbox", "backBarButtonItem": "blank"}},
            {"op": "push", "item": {"id": "message", "title": "Message"}},
        ])
        back = connection.call("io.navd.GetLayout", {"scene": fresh_scene})["layout"]["navigationBar"]["backButton"]
        assert back["title"] == "" and back["item"] == "blank"


# -- §9.7 previousValue / currentValue shapes ---------------------------------------------

def test_9_7_conflict_value_shapes(navd, fresh_scene):
    """PROTOCOL §9.7 (CONFLICTS F4, F5): previousValue and currentValue are the field's value
    as the state document writes it: the stack an array of ids, a first element an id or null,
    a background image an ImageRef object or null."""
    with navd.connect() as a, navd.connect() as b:
        base = mutate(a, fresh_scene, INBOX)["version"]
        mutate(a, fresh_scene, [
            {"op": "push", "item": {"id": "message"}},
            {"op": "setBarButtonItem", "item": "inbox", "side": "left", "barButtonItem": "flag"},
            {"op": "updateAppearance", "target": "toolbar",
             "set": {"backgroundImages": [{"position": "bottom", "metrics": "default", "image": {"name": "wood"}}]}},
        ])
        ops = [
            {"op": "setStack", "items": [{"id": "inbox"}]},
            {"op": "setBarButtonItem", "item": "inbox", "side": "left", "barButtonItem": "compose"},
            {"op": "updateAppearance", "target": "toolbar",
             "set": {"backgroundImages": [{"position": "bottom", "metrics": "default", "image": None}]}},
        ]
        name, details = error_of(b, "io.navd.Mutate", {
            "scene": fresh_scene, "ops": ops, "baseVersion": base, "policy": "failOnConflict"})
        assert name == "io.navd.Conflict"
        current = {c["field"]: c["currentValue"] for c in details["conflicts"]}
        assert current == {
            "appearance/toolbar/backgroundImage/bottom/default": {"name": "wood", "opaque": True},
            "navigationBar/items": ["inbox", "message"],
            "navigationItem/inbox/leftBarButtonItem": "flag",
        }
        reply = mutate(b, fresh_scene, ops, baseVersion=base)  # lastWriterWins
        previous = {o["field"]: o["previousValue"] for o in reply["overwritten"]}
        assert previous == current


# -- §9.8 first-element keys -------------------------------------------------------------

def test_9_8_insert_before_the_first_element_is_an_edit_not_a_first_element_write(navd, fresh_scene):
    """CONFLICTS §3 / PROTOCOL §9.8: insert, remove and move edit only the array key
    (`…BarButtonItems`), even when they change its first element; a later setBarButtonItem
    by another client from an older base therefore does not conflict."""
    with navd.connect() as a, navd.connect() as b:
        base = mutate(a, fresh_scene, INBOX)["version"]
        mutate(a, fresh_scene, [
            {"op": "insertBarButtonItem", "item": "inbox", "side": "left", "barButtonItem": "flag", "before": "edit"}])
        reply = mutate(b, fresh_scene, [
            {"op": "defineBarButtonItem", "barButtonItem": {"id": "reply", "systemItem": "reply"}},
            {"op": "setBarButtonItem", "item": "inbox", "side": "left", "barButtonItem": "reply"},
        ], baseVersion=base, policy="failOnConflict")
        assert reply["overwritten"] == []
        state = b.call("io.navd.GetState", {"scene": fresh_scene})["state"]
        # setBarButtonItem replaces whatever is first when it applies: here A's "flag".
        assert state["navigationBar"]["items"][0]["leftBarButtonItems"] == ["reply", "edit"]


# -- §9.9 the op log's reach ----------------------------------------------------------------

def test_9_9_op_log_reach_is_v_minus_capacity():
    """PROTOCOL §9.9 (CONFLICTS V7): with an op log of N versions at version V, the oldest
    usable baseVersion and sinceVersion is V−N; V−N−1 is expired. Checked with --op-log 4."""
    with Navd(args=["--op-log", "4"], name="oplog") as navd, navd.connect() as connection:
        for n in range(10):
            mutate(connection, "main", [{"op": "setBarHidden", "bar": "toolbar", "hidden": n % 2 == 0}])
        hide = [{"op": "setBarHidden", "bar": "navigationBar", "hidden": False}]
        # V = 10: base 6 = V−4 is held.
        assert mutate(connection, "main", hide, baseVersion=6)["baseVersionExpired"] is False
        # V = 11: base 6 = V−5 is not.
        assert mutate(connection, "main", hide, baseVersion=6)["baseVersionExpired"] is True
        # V = 12: under failOnConflict base 8 = V−4 is judged (own writes never conflict, V8) ...
        assert mutate(connection, "main", hide, baseVersion=8, policy="failOnConflict")["version"] == 13
        # ... and at V = 13, base 8 = V−5 is a Conflict on baseVersion (V7).
        name, details = error_of(connection, "io.navd.Mutate", {
            "scene": "main", "ops": hide, "baseVersion": 8, "policy": "failOnConflict"})
        assert name == "io.navd.Conflict" and details["field"] == "baseVersion"
        # sinceVersion 9 = V−4 resumes with updates; 8 = V−5 gets a snapshot.
        with navd.connect() as subscriber:
            subscriber.send("io.navd.Subscribe", {"scene": "main", "view": "state", "sinceVersion": 9}, more=True)
            first = subscriber.recv()["parameters"]
            assert first["kind"] == "update" and first["fromVersion"] == 9
        with navd.connect() as subscriber:
            subscriber.send("io.navd.Subscribe", {"scene": "main", "view": "state", "sinceVersion": 8}, more=True)
            assert subscriber.recv()["parameters"]["kind"] == "snapshot"


# -- §9.10 badly formed scene names -----------------------------------------------------------

READS = [("GetState", {}), ("GetLayout", {}), ("Subscribe", {}), ("Activate", {"item": "x"}), ("WatchActions", {})]


@pytest.mark.parametrize("scene", ["", "-dash", "has space", "x" * 65])
@pytest.mark.parametrize("method, extra", READS)
def test_9_10_bad_scene_name_on_a_read_is_scene_not_found(navd, method, extra, scene):
    """PROTOCOL §9.10 (SEMANTICS R66 references): reads look the name up as given."""
    with navd.connect() as connection:
        name, details = error_of(connection, f"io.navd.{method}", {"scene": scene, **extra},
                                 more=True if method in ("Subscribe", "WatchActions") else None)
        assert name == "io.navd.SceneNotFound" and details["field"] == "scene"


@pytest.mark.parametrize("scene, error, limit", [
    ("", "io.navd.InvalidMutation", None),
    ("-dash", "io.navd.InvalidMutation", None),
    ("has space", "io.navd.InvalidMutation", None),
    ("x" * 65, "io.navd.LimitExceeded", "idMaxLength"),
])
def test_9_10_bad_scene_name_on_mutate_is_the_id_rule(navd, scene, error, limit):
    """PROTOCOL §9.10 (SEMANTICS R66 creation): Mutate creates, so it checks the id syntax."""
    with navd.connect() as connection:
        name, details = error_of(connection, "io.navd.Mutate", {"scene": scene, "ops": INBOX})
        assert name == error and details["field"] == "scene" and details.get("limit") == limit


@pytest.mark.parametrize("method, extra", READS + [("Mutate", {"ops": INBOX})])
def test_9_10_scene_that_is_not_a_string_is_invalid_parameter(navd, method, extra):
    """PROTOCOL §9.10: a scene of the wrong JSON type is a bad call parameter."""
    with navd.connect() as connection:
        name, details = error_of(connection, f"io.navd.{method}", {"scene": 7, **extra},
                                 more=True if method in ("Subscribe", "WatchActions") else None)
        assert (name, details) == ("org.varlink.service.InvalidParameter", {"parameter": "scene"})


# -- §9.11 empty ids ---------------------------------------------------------------------------

@pytest.mark.parametrize("field", ["mutationId", "clientId"])
def test_9_11_empty_mutation_id_or_client_id_is_invalid_mutation(navd, fresh_scene, field):
    """PROTOCOL §9.11 (CONFLICTS §2: 1–128 bytes): "" is InvalidMutation naming the field."""
    with navd.connect() as connection:
        name, details = error_of(connection, "io.navd.Mutate", {"scene": fresh_scene, "ops": INBOX, field: ""})
        assert name == "io.navd.InvalidMutation" and details["field"] == field


def test_9_11_empty_client_id_on_activate_is_invalid_mutation(navd, fresh_scene):
    """PROTOCOL §9.11: Activate's clientId follows the same rule."""
    with navd.connect() as connection:
        mutate(connection, fresh_scene, INBOX)
        name, details = error_of(connection, "io.navd.Activate", {"scene": fresh_scene, "item": "edit", "clientId": ""})
        assert name == "io.navd.InvalidMutation" and details["field"] == "clientId"


# -- §9.12 limit names --------------------------------------------------------------------------

def defines(prefix: str, count: int) -> list:
    return [{"op": "defineBarButtonItem", "barButtonItem": {"id": f"{prefix}{i}", "title": "t"}} for i in range(count)]


LIMIT_CASES = {
    "idMaxLength": ([{"op": "push", "item": {"id": "i" * 65}}], {}, 64),
    "stringMaxBytes": ([{"op": "push", "item": {"id": "a", "title": "é" * 129}}], {}, 256),
    "maxWidth": ([{"op": "defineBarButtonItem", "barButtonItem": {"id": "w", "width": 10000.5}}], {}, 10000),
    "stackDepth": ([{"op": "setStack", "items": [{"id": f"s{i}"} for i in range(65)]}], {}, 64),
    "itemsPerArray": (defines("t", 33) + [{"op": "setToolbarItems", "items": [f"t{i}" for i in range(33)]}], {}, 32),
    "opsPerMutation": ([{"op": "setBarHidden", "bar": "toolbar", "hidden": True}] * 257, {}, 256),
    "possibleTitles": ([{"op": "defineBarButtonItem", "barButtonItem": {"id": "p", "possibleTitles": ["x"] * 17}}],
                       {}, 16),
    "mutationIdBytes": (INBOX, {"mutationId": "m" * 129}, 128),
    "clientIdBytes": (INBOX, {"clientId": "c" * 129}, 128),
}


@pytest.mark.parametrize("limit", sorted(LIMIT_CASES))
def test_9_12_limit_names(navd, fresh_scene, limit):
    """PROTOCOL §9.12 (SEMANTICS R66): LimitExceeded names its limit and max exactly."""
    ops, extra, maximum = LIMIT_CASES[limit]
    with navd.connect() as connection:
        name, details = error_of(connection, "io.navd.Mutate", {"scene": fresh_scene, "ops": ops, **extra})
        assert name == "io.navd.LimitExceeded"
        assert (details["limit"], details["max"]) == (limit, maximum)


def test_9_12_bar_button_items_per_scene_limit_name(navd, fresh_scene):
    """PROTOCOL §9.12: the 513th bar button item of a scene."""
    with navd.connect() as connection:
        mutate(connection, fresh_scene, defines("a", 256))
        mutate(connection, fresh_scene, defines("b", 256))
        name, details = error_of(connection, "io.navd.Mutate", {"scene": fresh_scene, "ops": defines("c", 1)})
        assert name == "io.navd.LimitExceeded"
        assert (details["limit"], details["max"]) == ("barButtonItemsPerScene", 512)


def test_9_12_max_scenes_limit_name():
    """PROTOCOL §9.12: the scene limit (here --max-scenes 2: `main` and one more)."""
    with Navd(args=["--max-scenes", "2"], name="scenes") as navd, navd.connect() as connection:
        mutate(connection, "second", INBOX)
        name, details = error_of(connection, "io.navd.Mutate", {"scene": "third", "ops": INBOX})
        assert name == "io.navd.LimitExceeded"
        assert (details["limit"], details["max"], details["field"]) == ("maxScenes", 2, "scene")


def test_9_12_max_subscribers_per_scene_is_configurable():
    """PROTOCOL §9.12, §2 limits: --max-subscribers-per-scene 2 serves two streams of a scene
    (a watcher counts) and refuses the third with LimitExceeded; another scene is not affected."""
    with Navd(args=["--max-subscribers-per-scene", "2"], name="subscribers") as navd:
        with navd.connect() as writer:
            mutate(writer, "other", INBOX)
        with navd.connect() as first, navd.connect() as second, navd.connect() as third, \
                navd.connect() as elsewhere:
            first.send("io.navd.Subscribe", {"scene": "main"}, more=True)
            assert first.recv()["parameters"]["kind"] == "snapshot"
            second.send("io.navd.WatchActions", {"scene": "main"}, more=True)
            assert second.recv()["parameters"]["kind"] == "watching"
            name, details = error_of(third, "io.navd.Subscribe", {"scene": "main"}, more=True)
            assert name == "io.navd.LimitExceeded"
            assert (details["limit"], details["max"]) == ("maxSubscribersPerScene", 2)
            elsewhere.send("io.navd.Subscribe", {"scene": "other"}, more=True)
            assert elsewhere.recv()["parameters"]["kind"] == "snapshot"


# -- §9.13 frame limit and nesting depth ---------------------------------------------------------

def padded_call(total_bytes: int) -> bytes:
    """A GetServerInfo call of exactly `total_bytes` bytes before its NUL (padding in a vendor key)."""
    bare = len(encode_call("io.navd.GetServerInfo", None, **{"x.pad": ""})) - 1
    frame = encode_call("io.navd.GetServerInfo", None, **{"x.pad": "p" * (total_bytes - bare)})
    assert len(frame) == total_bytes + 1
    return frame


def test_9_13_the_nul_does_not_count_toward_the_frame_limit():
    """PROTOCOL §9.13: a message of exactly --max-frame-bytes bytes plus its NUL is served;
    one byte more closes the connection."""
    with Navd(args=["--max-frame-bytes", "256"], name="frame") as navd:
        _, exact = run_in_child(lambda: raw_exchange(navd.socket_path, padded_call(256), replies_wanted=1))
        assert [r.get("error") for r in exact["replies"]] == [None] and not exact["closed"]
        _, over = run_in_child(lambda: raw_exchange(navd.socket_path, padded_call(257)))
        assert over["replies"] == [] and over["closed"]


def nested_call(depth: int) -> bytes:
    """A GetServerInfo call whose JSON nests `depth` levels, the call object itself being level 1."""
    value = "[" * (depth - 1) + "]" * (depth - 1)
    return b'{"method":"io.navd.GetServerInfo","x.nest":' + value.encode() + b"}\0"


def test_9_13_nesting_depth_counts_the_call_object_as_level_one(navd):
    """PROTOCOL §9.13: 64 levels (the call object, then 63 nested arrays) are served; 65 close."""
    _, ok = run_in_child(lambda: raw_exchange(navd.socket_path, nested_call(64), replies_wanted=1))
    assert len(ok["replies"]) == 1 and "error" not in ok["replies"][0] and not ok["closed"]
    _, deep = run_in_child(lambda: raw_exchange(navd.socket_path, nested_call(65)))
    assert deep["replies"] == [] and deep["closed"]


# -- §9.14 parameters that are not an object, duplicate keys -------------------------------------

@pytest.mark.parametrize("message", [
    b'{"method":"io.navd.GetServerInfo","parameters":[]}\0',
    b'{"method":"io.navd.GetServerInfo","parameters":"x"}\0',
    b'{"method":"io.navd.GetState","parameters":{"scene":"main","scene":"main"}}\0',
    b'{"method":"io.navd.GetServerInfo","method":"io.navd.GetServerInfo"}\0',
], ids=["parameters-array", "parameters-string", "duplicate-parameter", "duplicate-top-level-key"])
def test_9_14_parameters_not_an_object_and_duplicate_keys_are_protocol_errors(navd, message):
    """PROTOCOL §2 table / §9.14: both close the connection; a call sent before is answered."""
    before = encode_call("io.navd.GetServerInfo")
    _, result = run_in_child(lambda: raw_exchange(navd.socket_path, before + message))
    assert len(result["replies"]) == 1 and "error" not in result["replies"][0]
    assert result["closed"]


# -- §9.15 oneway on a streaming method ----------------------------------------------------------

@pytest.mark.parametrize("method", ["Subscribe", "WatchActions"])
def test_9_15_oneway_on_a_streaming_method_does_nothing(navd, method):
    """PROTOCOL §9.15: a oneway call to a streaming method starts no stream and sends nothing;
    the next call on the connection is answered (the positive marker) and no subscriber was added."""
    with navd.connect() as connection:
        before = {s["name"]: s["subscribers"] for s in connection.call("io.navd.ListScenes")["scenes"]}["main"]
        connection.send(f"io.navd.{method}", {"scene": "main"}, oneway=True)
        connection.send("io.navd.ListScenes")
        reply = connection.recv()
        assert "error" not in reply
        after = {s["name"]: s["subscribers"] for s in reply["parameters"]["scenes"]}["main"]
        assert after == before


# -- §9.16 MethodNotFound and InterfaceNotFound ---------------------------------------------------

def test_9_16_method_not_found_and_interface_not_found_parameters(navd):
    """PROTOCOL §9.16: MethodNotFound carries `method` (the full name as sent);
    InterfaceNotFound carries `interface`."""
    with navd.connect() as connection:
        assert error_of(connection, "io.navd.Nope", {}) == (
            "org.varlink.service.MethodNotFound", {"method": "io.navd.Nope"})
        assert error_of(connection, "com.example.Thing.Do", {}) == (
            "org.varlink.service.InterfaceNotFound", {"interface": "com.example.Thing"})
        assert error_of(connection, "org.varlink.service.GetInterfaceDescription", {"interface": "com.example"}) == (
            "org.varlink.service.InterfaceNotFound", {"interface": "com.example"})


# -- §9.17 @back when disabled -------------------------------------------------------------------

def test_9_17_back_button_disabled_is_not_activatable(navd, fresh_scene):
    """SEMANTICS R60 / PROTOCOL §9.17: a back button whose backBarButtonItem is disabled (R25)
    cannot be activated: ItemNotActivatable, and nothing is popped."""
    with navd.connect() as connection:
        version = mutate(connection, fresh_scene, [
            {"op": "defineBarButtonItem", "barButtonItem": {"id": "back", "title": "Back", "enabled": False}},
            {"op": "push", "item": {"id": "inbox", "title": "Inbox", "backBarButtonItem": "back"}},
            {"op": "push", "item": {"id": "message"}},
        ])["version"]
        name, details = error_of(connection, "io.navd.Activate", {"scene": fresh_scene, "item": "@back"})
        assert name == "io.navd.ItemNotActivatable" and details["value"] == "@back"
        assert connection.call("io.navd.GetState", {"scene": fresh_scene})["version"] == version


# -- §9.19 ListScenes counts watchers ----------------------------------------------------------------

def test_9_19_list_scenes_subscribers_counts_action_watchers(navd, fresh_scene):
    """PROTOCOL §9.19: ListScenes' `subscribers` counts Subscribe and WatchActions streams,
    as GetServerInfo's does."""
    with navd.connect() as connection:
        mutate(connection, fresh_scene, INBOX)
        with navd.connect() as subscriber, navd.connect() as watcher:
            subscriber.send("io.navd.Subscribe", {"scene": fresh_scene}, more=True)
            assert subscriber.recv()["parameters"]["kind"] == "snapshot"
            watcher.send("io.navd.WatchActions", {"scene": fresh_scene}, more=True)
            # The watcher is registered once its first reply, `watching`, arrives (§3 WatchActions).
            assert watcher.recv()["parameters"]["kind"] == "watching"
            assert connection.call("io.navd.Activate", {"scene": fresh_scene, "item": "edit"})["watchers"] == 1
            assert watcher.recv()["parameters"]["item"] == "edit"
            scenes = {s["name"]: s for s in connection.call("io.navd.ListScenes")["scenes"]}
            assert scenes[fresh_scene]["subscribers"] == 2
