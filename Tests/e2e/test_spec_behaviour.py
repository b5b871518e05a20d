"""Issue 13, "Behaviour that disagrees with the spec": each decision checked on the wire,
named after the rule or section it makes true. Negative checks wait for a positive marker
(a reply sent before, or the close itself), never for a sleep."""

from __future__ import annotations

from navd_fixture import encode_call, raw_exchange, run_in_child


def test_r67_lone_surrogate_is_a_protocol_error_that_closes(navd, fresh_scene):
    """SEMANTICS R67 / PROTOCOL §2: a JSON string with a lone surrogate is not valid text
    (RFC 8259 §8.2); navd closes the connection as for invalid UTF-8. The call before it is
    answered, and nothing changes."""
    bad = (b'{"method":"io.navd.Mutate","parameters":{"scene":"' + fresh_scene.encode()
           + b'","ops":[{"op":"push","item":{"id":"a","title":"a\\ud800b"}}]}}\0')
    _, result = run_in_child(lambda: raw_exchange(navd.socket_path, encode_call("io.navd.ListScenes") + bad))
    assert len(result["replies"]) == 1 and "scenes" in result["replies"][0]["parameters"]
    assert result["closed"]
    with navd.connect() as connection:
        assert fresh_scene not in {s["name"] for s in connection.call("io.navd.ListScenes")["scenes"]}


def test_r67_surrogate_pair_is_valid_text(navd, fresh_scene):
    """SEMANTICS R67: an escaped surrogate *pair* is one valid character and is stored as given."""
    with navd.connect() as connection:
        connection.send_raw(b'{"method":"io.navd.Mutate","parameters":{"scene":"' + fresh_scene.encode()
                            + b'","ops":[{"op":"push","item":{"id":"a","title":"a\\ud83d\\ude00b"}}]}}\0')
        assert connection.recv()["parameters"]["version"] == 1
        state = connection.call("io.navd.GetState", {"scene": fresh_scene})["state"]
        assert state["navigationBar"]["items"][0]["title"] == "a\U0001F600b"


def test_conflicts_s2_pop_to_reports_the_op_not_its_item(navd, fresh_scene):
    """CONFLICTS S2: a conflicting popTo fails with Conflict, field `ops[i]` and opIndex i
    (like a conflicting pop), under both policies."""
    with navd.connect() as a, navd.connect() as b:
        base = a.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [
            {"op": "push", "item": {"id": "root"}}, {"op": "push", "item": {"id": "list"}}]})["version"]
        a.call("io.navd.Mutate", {"scene": fresh_scene, "ops": [{"op": "push", "item": {"id": "detail"}}]})
        for policy in ("lastWriterWins", "failOnConflict"):
            reply = b.call_raw("io.navd.Mutate", {"scene": fresh_scene, "baseVersion": base, "policy": policy, "ops": [
                {"op": "setBarHidden", "bar": "toolbar", "hidden": True}, {"op": "popTo", "item": "root"}]})
            assert reply["error"] == "io.navd.Conflict"
            assert (reply["parameters"]["field"], reply["parameters"]["opIndex"]) == ("ops[1]", 1)


def test_protocol_2_a_call_on_a_connection_with_a_stream_open_closes_it(navd, fresh_scene):
    """PROTOCOL §2 "One stream per connection": a message sent while a stream is open is a
    protocol error: the connection closes (the stream's replies so far arrive first) and the
    reason is logged once. Other connections are not affected."""
    def client():
        from navd_fixture import VarlinkConnection, ConnectionClosed
        connection = VarlinkConnection(navd.socket_path, timeout=5)
        try:
            connection.send("io.navd.Subscribe", {"scene": "main"}, more=True)
            first = connection.recv()["parameters"]["kind"]
            connection.send("io.navd.GetServerInfo")
            try:
                while True:
                    connection.recv_frame()
            except ConnectionClosed:
                return first, True
        finally:
            connection.close()

    pid, (first, closed) = run_in_child(client)
    assert first == "snapshot" and closed
    lines = navd.wait_for_log(rf"pid={pid}\b.*stream is open|stream is open.*pid={pid}\b")
    assert len(lines) == 1, navd.log()[-2000:]
    with navd.connect() as connection:
        assert "scenes" in connection.call("io.navd.ListScenes")
