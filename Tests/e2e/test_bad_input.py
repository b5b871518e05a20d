"""Bad input (issue 3, "Bad input"; PROTOCOL.md §2 and §5).

Each case gets the documented error reply or the documented close, changes no
state (ListScenes and GetState of `main` before == after), leaves every other
client served (a bystander connection opened before the offence, and a new
connection after it), and — for closes — is logged exactly once in navd's
stderr. The offending client runs in a forked child so that navd's log line,
which carries the peer's pid (SO_PEERCRED), can be attributed to it.

navd runs with NAVD_DEBUG=1 here so that closes navd logs at debug level (a
peer that disconnects) are visible too.
"""

from __future__ import annotations

import json
import os
import re
import resource
import socket
import threading
import time

import jsonpatch
import pytest

from navd_fixture import DEFAULT_TIMEOUT, Navd, VarlinkConnection, encode_call, raw_exchange, run_in_child
from workload import Follower

MIB = 1 << 20

SETUP_OPS = [
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "edit", "systemItem": "edit"}},
    {"op": "defineBarButtonItem", "barButtonItem": {"id": "compose", "systemItem": "compose", "action": "compose"}},
    {"op": "push", "item": {"id": "inbox", "title": "Inbox", "leftBarButtonItems": ["edit"],
                            "rightBarButtonItems": ["compose"]}},
]


@pytest.fixture(scope="module")
def navd():
    daemon = Navd(name="bad", env={"NAVD_DEBUG": "1"}).start()
    try:
        with daemon.connect() as connection:
            connection.call("io.navd.Mutate", {"scene": "main", "ops": SETUP_OPS})
        yield daemon
    finally:
        daemon.cleanup()


def world(navd) -> tuple:
    """Everything a bad client must not change: every scene's version, and main's document."""
    with navd.connect() as connection:
        scenes = [(s["name"], s["version"]) for s in connection.call("io.navd.ListScenes")["scenes"]]
        main = connection.call("io.navd.GetState", {"scene": "main"})
    return scenes, main


class Guard:
    """Before/after checks around one offence."""

    def __init__(self, navd):
        self.navd = navd
        self.before = world(navd)
        self.bystander = navd.connect()
        self.bystander.call("io.navd.GetServerInfo")  # established and served
        self.log_mark = len(navd.log_lines())

    def check(self) -> None:
        assert self.navd.alive(), f"navd died; stderr:\n{self.navd.log()[-3000:]}"
        # The bystander, connected before the offence, is still served ...
        reply = self.bystander.call("io.navd.GetState", {"scene": "main"}, timeout=5)
        assert reply == self.before[1]
        self.bystander.close()
        # ... and so is a new client; and nothing changed.
        assert world(self.navd) == self.before, "the bad input changed state"

    def closes_logged(self, pid: int, expected: int = 1) -> list[str]:
        """The "connection closed" lines for connections of process `pid`: waits for `expected`
        of them, then for a marker line logged after them (a call of this process that navd
        rejects), so a further line for `pid`, had there been one, is in the log by then.
        No sleep: a slow navd makes this wait longer, never pass wrongly."""
        self.navd.wait_for_log(rf"connection closed: .*\bpid={pid}\b", count=expected, after=self.log_mark)
        # On the bystander's connection: a new one might be over a connection limit.
        self.bystander.call_raw("io.navd.GetState", {"scene": "no-such-scene-marker"})
        assert self.navd.wait_for_log(rf"no-such-scene-marker.*\bpid={os.getpid()}\b|\bpid={os.getpid()}\b.*no-such-scene-marker",
                                      after=self.log_mark), "the marker call was never logged"
        return [line for line in self.navd.log_lines()[self.log_mark:]
                if "connection closed" in line and re.search(rf"\bpid={pid}\b", line)]

    def assert_logged_once(self, pid: int, reason: str) -> str:
        lines = self.closes_logged(pid)
        assert len(lines) == 1, f"expected one logged close for pid {pid}, got {lines}"
        assert re.search(reason, lines[0]), f"logged reason {lines[0]!r} does not match {reason!r}"
        return lines[0]


def offend(navd, data, **options) -> tuple[int, dict]:
    return run_in_child(lambda: raw_exchange(navd.socket_path, data, **options), timeout=60)


# ---------------------------------------------------------------------------
# Protocol errors: not answered; the connection is closed and the reason logged once.

DEEP = 100_000
CLOSING_CASES = {
    "invalid_json": (b'{"method": "io.navd.GetState", "parameters": {"scene": "main"}\0', r"invalid JSON"),
    "invalid_json_garbage": (b"{not json}\0", r"invalid JSON"),
    "invalid_utf8": (b'{"method":"io.navd.GetState","parameters":{"scene":"m\xffain"}}\0', r"UTF-8"),
    "invalid_utf8_overlong": (b'{"method":"io.navd.GetState","parameters":{"scene":"\xc0\xaf"}}\0', r"UTF-8"),
    "invalid_utf8_in_key": (b'{"method":"io.navd.GetState","parameters":{"sc\xe9ne":"main"}}\0', r"UTF-8"),
    "nested_100000_arrays": (b"[" * DEEP + b"]" * DEEP + b"\0", r"nesting deeper than 64"),
    "nested_100000_in_parameters": (
        b'{"method":"io.navd.GetState","parameters":{"scene":"main","x":' + b'{"a":' * DEEP + b"1" + b"}" * DEEP
        + b"}}\0", r"nesting deeper than 64"),
    "more_and_oneway": (encode_call("io.navd.GetState", {"scene": "main"}, more=True, oneway=True),
                        r"at most one of"),
    "more_and_upgrade": (encode_call("io.navd.GetState", {"scene": "main"}, more=True, upgrade=True),
                         r"at most one of"),
    "wrongly_typed_flag": (b'{"method":"io.navd.GetState","parameters":{"scene":"main"},"more":"yes"}\0',
                           r"protocol error"),
    "unknown_top_level_key": (encode_call("io.navd.GetState", {"scene": "main"}, colour="red"),
                              r'unknown top-level key "colour"'),
    "method_not_a_string": (b'{"method":42}\0', r"protocol error"),
    "no_method": (b'{"parameters":{"scene":"main"}}\0', r"protocol error"),
    "not_an_object": (b'["io.navd.GetState"]\0', r"protocol error"),
    "reply_shaped": (b'{"parameters":{"version":1},"continues":true}\0', r"protocol error"),
    "error_shaped": (b'{"error":"io.navd.Conflict","parameters":{}}\0', r"protocol error"),
    "parameters_not_an_object": (b'{"method":"io.navd.GetState","parameters":["main"]}\0', r"protocol error"),
}


@pytest.mark.parametrize("case", sorted(CLOSING_CASES))
def test_protocol_error_closes_and_logs_once(navd, case):
    data, reason = CLOSING_CASES[case]
    guard = Guard(navd)
    pid, result = offend(navd, data)
    assert result["replies"] == [], f"a protocol error must not be answered: {result['replies']}"
    assert result["closed"], "navd did not close the connection"
    guard.assert_logged_once(pid, reason)
    guard.check()


def test_calls_before_a_protocol_error_are_answered(navd):
    """Complete calls sent before a malformed frame are handled in order and answered before
    the close; navd must not execute a call and then drop its reply because of what followed
    it (PROTOCOL.md §2: replies come in the order of the calls; a protocol error closes the
    connection; §5: a failed call changes nothing — so a call that changed something must be
    acknowledged). Two shapes, each sent in one write:
    (a) Mutate, then `{broken` — expected: the Mutate's reply, then the close;
    (b) Mutate, GetState, ListScenes, then `{broken` — expected: three replies, then the close."""
    problems = []
    for shape, calls in [
        ("a", [("io.navd.Mutate", {"scene": "before-error-a", "ops": [
            {"op": "setBarHidden", "bar": "toolbar", "hidden": True}]})]),
        ("b", [("io.navd.Mutate", {"scene": "before-error-b", "ops": [
            {"op": "setBarHidden", "bar": "toolbar", "hidden": True}]}),
               ("io.navd.GetState", {"scene": "main"}), ("io.navd.ListScenes", None)]),
    ]:
        scene = calls[0][1]["scene"]
        data = b"".join(encode_call(method, parameters) for method, parameters in calls) + b"{broken\0"
        pid, result = offend(navd, data)
        assert result["closed"]
        with navd.connect() as connection:
            committed = any(s["name"] == scene for s in connection.call("io.navd.ListScenes")["scenes"])
        answered = [sorted(r.get("parameters", {})) for r in result["replies"]]
        if len(answered) != len(calls):
            problems.append(f"({shape}) {len(calls)} complete calls before the bad frame, {len(answered)} "
                            f"replies ({answered}); the Mutate was {'committed' if committed else 'not committed'}")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------
# Size limit: 1 MiB by default (--max-frame-bytes).

def padded_call(total: int) -> bytes:
    """A valid GetState call of exactly `total` bytes including its NUL (the padding is a
    vendor-extension key, which navd ignores: PROTOCOL.md §2)."""
    head = b'{"method":"io.navd.GetState","parameters":{"scene":"main"},"org.example.pad":"'
    tail = b'"}\0'
    return head + b"a" * (total - len(head) - len(tail)) + tail


def test_message_over_one_mib_closes(navd):
    guard = Guard(navd)
    pid, result = offend(navd, padded_call(MIB + 4096))
    assert result["replies"] == []
    assert result["closed"]
    guard.assert_logged_once(pid, r"exceeds the limit of 1048576 bytes")
    guard.check()


def test_message_over_one_mib_in_pieces_closes_while_arriving(navd):
    """Sent in 64 KiB pieces, without a NUL: navd closes once the limit is passed, before the
    (4 MiB) message is complete — it does not wait for the end of a message it will refuse."""
    guard = Guard(navd)
    message = padded_call(4 * MIB)
    pieces = [message[i:i + 65536] for i in range(0, len(message), 65536)]
    pid, result = offend(navd, pieces, pause=0.002)
    assert result["replies"] == []
    assert result["closed"]
    assert result["send_error"] is not None and result["sent"] < 3 * MIB, (
        f"navd accepted {result['sent']} bytes of a message over the limit before closing")
    guard.assert_logged_once(pid, r"exceeds the limit of 1048576 bytes")
    guard.check()


def test_message_just_under_one_mib_is_served(navd):
    guard = Guard(navd)
    pid, result = offend(navd, padded_call(MIB - 64), replies_wanted=1)
    assert len(result["replies"]) == 1 and result["replies"][0]["parameters"] == guard.before[1]
    assert not result["closed"]
    guard.check()


def test_small_max_frame_bytes_is_configurable():
    with Navd(name="frame", args=["--max-frame-bytes", "4096"]) as small:
        guard = Guard(small)
        pid, result = run_in_child(lambda: raw_exchange(small.socket_path, padded_call(5000)))
        assert result["replies"] == [] and result["closed"]
        guard.assert_logged_once(pid, r"exceeds the limit of 4096 bytes")
        pid, result = run_in_child(lambda: raw_exchange(small.socket_path, padded_call(4000), replies_wanted=1))
        assert len(result["replies"]) == 1 and "error" not in result["replies"][0]
        guard.check()


# ---------------------------------------------------------------------------

def test_bytes_without_nul_keep_connection_open_and_others_served(navd):
    """A partial message: navd buffers it and keeps serving others. The 30 s partial-frame
    timeout that closes such a connection has no command-line flag, so it is covered by the
    Swift tests (ServerSocketTests: noNULEver with a 300 ms timeout; ConnectionStateMachineTests:
    partialFrameTimeout); here: the connection is still open after a while, nothing changed,
    and the other clients are served meanwhile."""
    guard = Guard(navd)
    connection = navd.connect()
    try:
        connection.send_raw(b'{"method":"io.navd.GetState","parameters":{"scene":"main"')
        connection.send_raw(b" " * 10_000)
        for _ in range(3):
            with navd.connect() as other:
                assert other.call("io.navd.GetState", {"scene": "main"}, timeout=2) == guard.before[1]
        assert world(navd) == guard.before
        # The positive marker: the partial message, completed now, is answered on the same
        # connection, so navd kept both the connection and the bytes it had buffered.
        connection.send_raw(b"}}\0")
        assert connection.recv(timeout=5)["parameters"] == guard.before[1], "navd closed a partial message early"
    finally:
        connection.close()
    guard.check()


# ---------------------------------------------------------------------------
# Answered errors: the connection stays usable.

ANSWERED_CASES = {
    "unknown_interface": (encode_call("io.nowhere.GetState", {"scene": "main"}),
                          "org.varlink.service.InterfaceNotFound", {"interface": "io.nowhere"}),
    "unknown_method": (encode_call("io.navd.Frobnicate", {}),
                       "org.varlink.service.MethodNotFound", {"method": "io.navd.Frobnicate"}),
    "unknown_service_method": (encode_call("org.varlink.service.Frobnicate"),
                               "org.varlink.service.MethodNotFound", {"method": "org.varlink.service.Frobnicate"}),
    "missing_parameter": (encode_call("io.navd.GetState", {}),
                          "org.varlink.service.InvalidParameter", {"parameter": "scene"}),
    "missing_parameters_object": (encode_call("io.navd.GetLayout"),
                                  "org.varlink.service.InvalidParameter", {"parameter": "scene"}),
    "missing_ops": (encode_call("io.navd.Mutate", {"scene": "main"}),
                    "org.varlink.service.InvalidParameter", {"parameter": "ops"}),
    "unknown_parameter": (encode_call("io.navd.GetState", {"scene": "main", "colour": "red"}),
                          "org.varlink.service.InvalidParameter", {"parameter": "colour"}),
    "wrong_type_scene": (encode_call("io.navd.GetState", {"scene": 7}),
                         "org.varlink.service.InvalidParameter", {"parameter": "scene"}),
    "wrong_type_width": (encode_call("io.navd.GetLayout", {"scene": "main", "width": "wide"}),
                         "org.varlink.service.InvalidParameter", {"parameter": "width"}),
    "wrong_type_ops": (encode_call("io.navd.Mutate", {"scene": "main", "ops": {"op": "pop"}}),
                       "org.varlink.service.InvalidParameter", {"parameter": "ops"}),
    "wrong_type_base_version": (
        encode_call("io.navd.Mutate", {"scene": "main", "baseVersion": "1",
                                       "ops": [{"op": "updateNavigationItem", "item": "inbox",
                                                "set": {"title": "X"}}]}),
        "org.varlink.service.InvalidParameter", {"parameter": "baseVersion"}),
    "wrong_enum_policy": (
        encode_call("io.navd.Mutate", {"scene": "main", "policy": "whoever",
                                       "ops": [{"op": "updateNavigationItem", "item": "inbox",
                                                "set": {"title": "X"}}]}),
        "org.varlink.service.InvalidParameter", {"parameter": "policy"}),
    "width_out_of_range": (encode_call("io.navd.GetLayout", {"scene": "main", "width": -5}),
                           "org.varlink.service.InvalidParameter", {"parameter": "width"}),
    "width_with_state_view": (encode_call("io.navd.Subscribe", {"scene": "main", "view": "state", "width": 320},
                                          more=True),
                              "org.varlink.service.InvalidParameter", {"parameter": "width"}),
    "wrong_enum_view": (encode_call("io.navd.Subscribe", {"scene": "main", "view": "diagonal"}, more=True),
                        "org.varlink.service.InvalidParameter", {"parameter": "view"}),
    "wrong_type_since_version": (encode_call("io.navd.Subscribe", {"scene": "main", "sinceVersion": "3"}, more=True),
                                 "org.varlink.service.InvalidParameter", {"parameter": "sinceVersion"}),
    "wrong_type_item": (encode_call("io.navd.Activate", {"scene": "main", "item": 5}),
                        "org.varlink.service.InvalidParameter", {"parameter": "item"}),
    "fractional_base_version": (
        encode_call("io.navd.Mutate", {"scene": "main", "baseVersion": 1.5, "ops": [{"op": "pop"}]}),
        "org.varlink.service.InvalidParameter", {"parameter": "baseVersion"}),
    "unknown_parameter_no_parameter_method": (encode_call("io.navd.ListScenes", {"x": 1}),
                                              "org.varlink.service.InvalidParameter", {"parameter": "x"}),
    "unknown_interface_description": (
        encode_call("org.varlink.service.GetInterfaceDescription", {"interface": "io.nowhere"}),
        "org.varlink.service.InterfaceNotFound", {"interface": "io.nowhere"}),
    "streaming_method_without_more": (encode_call("io.navd.Subscribe", {"scene": "main"}),
                                      "org.varlink.service.ExpectedMore", {}),
    "upgrade": (encode_call("io.navd.GetState", {"scene": "main"}, upgrade=True),
                "org.varlink.service.InvalidParameter", {"parameter": "upgrade"}),
    "unknown_scene": (encode_call("io.navd.GetState", {"scene": "nowhere"}), "io.navd.SceneNotFound",
                      {"field": "scene", "value": "nowhere"}),
    "bad_scene_name": (encode_call("io.navd.Mutate", {"scene": "-bad name-", "ops": [
        {"op": "setBarHidden", "bar": "toolbar", "hidden": True}]}), None, {}),
    "unknown_op_field": (encode_call("io.navd.Mutate", {"scene": "main", "ops": [
        {"op": "setBarHidden", "bar": "toolbar", "hidden": True, "colour": "red"}]}), "io.navd.InvalidMutation",
        {"field": "ops[0].colour"}),  # opIndex: test_protocol_checks.test_invalid_mutation_names_the_op_index
    "no_ops": (encode_call("io.navd.Mutate", {"scene": "main", "ops": []}), "io.navd.InvalidMutation",
               {"field": "ops"}),
}


@pytest.mark.parametrize("case", sorted(ANSWERED_CASES))
def test_bad_call_gets_documented_error_and_connection_stays_usable(navd, case):
    data, error, parameters = ANSWERED_CASES[case]
    guard = Guard(navd)
    # The bad call, then a good one on the same connection: the error does not end the connection.
    pid, result = offend(navd, data + encode_call("io.navd.GetState", {"scene": "main"}), replies_wanted=2)
    assert not result["closed"], "an answerable bad call closed the connection"
    assert len(result["replies"]) == 2, result
    bad, good = result["replies"]
    if error is None:  # any documented io.navd / varlink error
        assert bad.get("error", "").startswith(("io.navd.", "org.varlink.service.")), bad
    else:
        assert bad.get("error") == error, bad
        for key, value in parameters.items():
            assert bad["parameters"].get(key) == value, bad
    if bad["error"].startswith("io.navd."):
        assert isinstance(bad["parameters"].get("message"), str) and bad["parameters"]["message"], bad
    assert good["parameters"] == guard.before[1]
    guard.check()


def test_bad_call_reason_is_logged_once(navd):
    """Issue 3: each bad input "is logged once" — including unknown interface or method and
    missing, unknown or wrongly typed parameters, which navd answers with an error. (PROTOCOL.md
    §2 promises a logged reason only for the protocol errors that close the connection.)
    A line other than "connection accepted" / "peer closed" must name the rejected call."""
    missing = []
    for case in ["unknown_interface", "unknown_method", "missing_parameter", "unknown_parameter",
                 "wrong_type_width"]:
        data, error, _ = ANSWERED_CASES[case]
        guard = Guard(navd)
        pid, result = offend(navd, data, replies_wanted=1)
        assert result["replies"] and result["replies"][0]["error"] == error
        navd.wait_for_log(rf"peer closed the connection.*\bpid={pid}\b", after=guard.log_mark)
        lines = [line for line in navd.log_lines()[guard.log_mark:]
                 if re.search(rf"\bpid={pid}\b", line) and "connection accepted" not in line
                 and "peer closed the connection" not in line]
        if len(lines) != 1:
            missing.append(f"{case} ({error}): {len(lines)} lines")
        guard.check()
    assert not missing, "navd did not log these rejected calls exactly once: " + "; ".join(missing)


def test_oneway_bad_call_gets_nothing_back(navd):
    """oneway: navd sends nothing back, not even an error (PROTOCOL.md §2)."""
    guard = Guard(navd)
    data = encode_call("io.navd.Frobnicate", {}, oneway=True) + encode_call("io.navd.GetState", {"scene": "nowhere"},
                                                                             oneway=True)
    pid, result = offend(navd, data + encode_call("io.navd.GetServerInfo"), replies_wanted=1)
    assert len(result["replies"]) == 1 and "version" in result["replies"][0]["parameters"], result
    guard.check()


# ---------------------------------------------------------------------------
# Disconnects.

def test_client_disconnects_mid_message(navd):
    guard = Guard(navd)

    def action():
        connection = VarlinkConnection(navd.socket_path)
        connection.send_raw(b'{"method":"io.navd.Mutate","parameters":{"scene":"main","ops":[{"op":"setBarHid')
        time.sleep(0.2)
        connection.close()
        return True

    pid, _ = run_in_child(action)
    guard.assert_logged_once(pid, r"peer closed")
    guard.check()


def test_client_disconnects_before_its_reply(navd, tmp_path):
    """Complete calls whose replies the client never reads: navd drops the replies. A complete
    Mutate is a complete call — it commits all or nothing (here: all, exactly once)."""
    guard = Guard(navd)
    scene = "disconnect-mid-call"

    def action():
        connection = VarlinkConnection(navd.socket_path)
        connection.send_raw(
            encode_call("io.navd.GetLayout", {"scene": "main", "width": 320})
            + encode_call("io.navd.Mutate", {"scene": scene, "ops": [{"op": "push", "item": {"id": "a"}},
                                                                     {"op": "push", "item": {"id": "b"}}]})
            + encode_call("io.navd.GetState", {"scene": "main"}) * 50)
        connection.close()
        return True

    pid, _ = run_in_child(action)
    guard.assert_logged_once(pid, r"peer closed|I/O error")
    assert navd.alive()
    with navd.connect() as connection:
        deadline = time.monotonic() + DEFAULT_TIMEOUT
        while True:
            try:
                reply = connection.call("io.navd.GetState", {"scene": scene})
                break
            except Exception:  # noqa: BLE001 — the scene may not exist yet
                assert time.monotonic() < deadline, "the complete Mutate was never committed"
                time.sleep(0.05)
        assert reply["version"] == 1
        assert [item["id"] for item in reply["state"]["navigationBar"]["items"]] == ["a", "b"]
        # Drop the scene from the comparison: it was legitimately created by a complete call.
        scenes = [(s["name"], s["version"]) for s in connection.call("io.navd.ListScenes")["scenes"]
                  if s["name"] != scene]
    assert scenes == guard.before[0]
    guard.before = world(navd)
    guard.check()


def test_client_disconnects_mid_stream(navd):
    guard = Guard(navd)
    scene = "disconnect-mid-stream"
    with navd.connect() as writer:
        writer.call("io.navd.Mutate", {"scene": scene, "ops": [{"op": "push", "item": {"id": "root"}}]})

        ready = threading.Event()

        def action():
            connection = VarlinkConnection(navd.socket_path)
            connection.send("io.navd.Subscribe", {"scene": scene, "view": "state"}, more=True)
            connection.recv()  # the snapshot
            watch = VarlinkConnection(navd.socket_path)
            watch.send("io.navd.WatchActions", {"scene": scene}, more=True)
            time.sleep(0.3)  # updates arrive unread meanwhile
            connection.close()
            watch.close()
            return True

        def mutate_meanwhile():
            ready.wait(5)
            for i in range(20):
                writer.call("io.navd.Mutate", {"scene": scene, "ops": [
                    {"op": "updateNavigationItem", "item": "root", "set": {"title": f"T{i}"}}]})

        thread = threading.Thread(target=mutate_meanwhile, daemon=True)
        thread.start()
        ready.set()
        pid, _ = run_in_child(action)
        thread.join(10)
        lines = guard.closes_logged(pid, expected=2)
        assert len(lines) == 2 and all("peer closed" in line for line in lines), lines  # two connections
        # The subscription and the watch are gone: the scene has no subscribers left.
        deadline = time.monotonic() + DEFAULT_TIMEOUT
        while True:
            scenes = {s["name"]: s for s in writer.call("io.navd.ListScenes")["scenes"]}
            if scenes[scene]["subscribers"] == 0:
                break
            assert time.monotonic() < deadline, f"subscribers never went away: {scenes[scene]}"
            time.sleep(0.05)
        assert writer.call("io.navd.GetState", {"scene": scene})["version"] == 21
    guard.before = world(navd)
    guard.check()


# ---------------------------------------------------------------------------

def test_subscriber_that_never_reads_is_coalesced_and_memory_stays_bounded(navd):
    """A state subscriber that reads nothing while a writer commits a few thousand large
    updates (~16 KiB of patch each, ~30 MiB in all): navd's memory stays bounded, another
    subscriber and the writer are served throughout, and when the slow one finally reads it
    receives a coalesced update (PROTOCOL.md §6) that lands exactly on the current document —
    far fewer bytes than the updates it missed. (The 60 s no-read disconnect is not waited for.)"""
    scene = "slow-subscriber"
    guard = Guard(navd)
    items = [f"n{i}" for i in range(16)]
    with navd.connect() as writer:
        writer.call("io.navd.Mutate", {"scene": scene, "ops": [
            {"op": "setStack", "items": [{"id": item, "title": "t"} for item in items]}]})
        sleeper = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sleeper.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sleeper.settimeout(10)
        sleeper.connect(navd.socket_path)
        sleeper.sendall(encode_call("io.navd.Subscribe", {"scene": scene, "view": "state"}, more=True))
        follower = Follower(navd.socket_path, scene, "state", name="reader")
        follower.start()
        assert follower.subscribed.wait(DEFAULT_TIMEOUT)
        time.sleep(0.2)
        rss_before = navd.rss_kib()

        mutations = 2000
        window = 32
        started = time.monotonic()
        sent_update_bytes = 0
        for start in range(0, mutations, window):
            assert time.monotonic() - started < 60, "the writer was starved"
            batch = bytearray()
            for n in range(start, min(mutations, start + window)):
                text = f"{n:06d}" + "x" * 240
                # The push and pop give every version events, so each is an update of its own
                # (a commit group of event-free versions would be one update, PROTOCOL.md §6).
                batch += encode_call("io.navd.Mutate", {"scene": scene, "ops": [
                    {"op": "updateNavigationItem", "item": item, "set": {"title": text + item, "prompt": text}}
                    for item in items] + [{"op": "push", "item": {"id": "top"}}, {"op": "pop"}]})
            writer.send_raw(bytes(batch))
            for _ in range(start, min(mutations, start + window)):
                reply = writer.recv(timeout=10)
                assert "error" not in reply, reply
            sent_update_bytes += len(batch)
        final = writer.call("io.navd.GetState", {"scene": scene})
        assert final["version"] == mutations + 1
        rss_after = navd.rss_kib()
        print(f"navd VmRSS {rss_before} KiB -> {rss_after} KiB; ~{sent_update_bytes // MIB} MiB of updates")
        assert rss_after - rss_before < 96 * 1024, "navd's memory grew with the unread subscriber's backlog"

        # The reading subscriber kept up, version by version.
        assert follower.wait_for_version(final["version"], timeout=30)
        follower.stop()
        assert follower.problems == [] and follower.error is None
        assert follower.document == final["state"]
        assert follower.covered_versions() == list(range(2, final["version"] + 1))

        # Now the sleeper reads: snapshot, whatever was queued, then a coalesced jump to the end.
        sleeper.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        buffer = bytearray()
        document = None
        version = None
        coalesced = 0
        received = 0
        deadline = time.monotonic() + 30
        while version != final["version"]:
            assert time.monotonic() < deadline, f"the slow subscriber never reached {final['version']} ({version})"
            sleeper.settimeout(max(0.1, deadline - time.monotonic()))
            chunk = sleeper.recv(1 << 20)
            assert chunk, "navd closed the slow subscriber (it should coalesce before the hard limit)"
            received += len(chunk)
            buffer += chunk
            while b"\0" in buffer:
                end = buffer.index(b"\0")
                message = json.loads(bytes(buffer[:end]))
                del buffer[:end + 1]
                body = message["parameters"]
                if body["kind"] == "snapshot":
                    document, version = body["document"], body["version"]
                    continue
                assert body["kind"] == "update" and body["fromVersion"] == version, body.get("fromVersion")
                document = jsonpatch.apply_patch(document, body["patch"], in_place=True)
                version = body["toVersion"]
                if body.get("coalesced"):
                    coalesced += 1
                    assert body["events"] == [] and body["animated"] is False
        sleeper.close()
        print(f"slow subscriber: {received // 1024} KiB received, {coalesced} coalesced update(s)")
        assert document == final["state"]
        assert coalesced >= 1, "the slow subscriber's backlog was never coalesced"
        assert received < 16 * MIB, f"{received} bytes delivered: the backlog was not bounded"
    guard.before = world(navd)
    guard.check()


def test_thousands_of_idle_connections_and_a_new_client_is_served(navd):
    count = 2000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 256
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"RLIMIT_NOFILE hard limit {hard} is below {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    guard = Guard(navd)
    idle: list[socket.socket] = []
    try:
        started = time.monotonic()
        for _ in range(count):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(5)
            sock.connect(navd.socket_path)
            idle.append(sock)
            assert time.monotonic() - started < 60
        # A new client is served promptly; navd counts the idle ones.
        with navd.connect(timeout=5) as client:
            asked = time.monotonic()
            info = client.call("io.navd.GetServerInfo", timeout=5)
            assert time.monotonic() - asked < 2.0
            deadline = time.monotonic() + DEFAULT_TIMEOUT
            while info["connections"] < count + 1 and time.monotonic() < deadline:
                time.sleep(0.05)
                info = client.call("io.navd.GetServerInfo", timeout=5)
            assert info["connections"] >= count + 1, info
            assert client.call("io.navd.GetState", {"scene": "main"}) == guard.before[1]
            # A few of the idle ones wake up and are served too.
            for sock in idle[:: count // 10]:
                sock.sendall(encode_call("io.navd.GetServerInfo"))
                data = b""
                while not data.endswith(b"\0"):
                    chunk = sock.recv(65536)
                    assert chunk
                    data += chunk
                assert "connections" in json.loads(data[:-1])["parameters"]
    finally:
        for sock in idle:
            sock.close()
    with navd.connect() as client:
        deadline = time.monotonic() + DEFAULT_TIMEOUT
        while client.call("io.navd.GetServerInfo")["connections"] > 10:
            assert time.monotonic() < deadline, "navd did not notice the idle connections closing"
            time.sleep(0.05)
    guard.check()


def test_past_the_connection_limit_a_client_gets_limit_exceeded():
    limit = 50
    with Navd(name="limit", args=["--max-connections", str(limit)], env={"NAVD_DEBUG": "1"}) as small:
        guard = Guard(small)  # holds one connection (the bystander)
        held = [guard.bystander]
        try:
            for _ in range(limit - 1):
                connection = small.connect(timeout=5)
                connection.call("io.navd.GetServerInfo")
                held.append(connection)
            # The 51st connection is accepted, its first call answered LimitExceeded, then closed.
            started = time.monotonic()
            pid, result = run_in_child(lambda: raw_exchange(small.socket_path, encode_call(
                "io.navd.GetState", {"scene": "main"})))
            assert time.monotonic() - started < 5, "the client over the limit waited instead of being answered"
            assert len(result["replies"]) == 1, result
            reply = result["replies"][0]
            assert reply.get("error") == "io.navd.LimitExceeded", reply
            assert reply["parameters"].get("limit") == "connections", reply
            assert reply["parameters"].get("max") in (None, limit), reply
            assert result["closed"], "the connection over the limit was not closed"
            guard.assert_logged_once(pid, r"over the connection limit")
            # Every held connection is still served.
            for connection in held[::7]:
                connection.call("io.navd.GetServerInfo", timeout=5)
            # Free one slot: a new client is served again.
            held.pop().close()
            deadline = time.monotonic() + DEFAULT_TIMEOUT
            while True:
                with small.connect(timeout=5) as connection:
                    reply = connection.call_raw("io.navd.GetState", {"scene": "main"}, timeout=5)
                if "error" not in reply:
                    break
                assert reply["error"] == "io.navd.LimitExceeded"
                assert time.monotonic() < deadline, "a freed slot was never reused"
                time.sleep(0.05)
        finally:
            for connection in held[1:]:
                connection.close()
        guard.check()
