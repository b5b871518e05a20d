"""PROTOCOL.md §2 "Stalled and idle connections" and "When navd turns a connection
away", end to end on a real navd: the idle timeout frees slots, a subscriber that
stops reading is cut at the stall timeout with no update following, and every
client navd can accept beyond its limits reads io.navd.LimitExceeded."""

from __future__ import annotations

import os
import socket
import stat
import time

from navd_fixture import DEFAULT_TIMEOUT, ConnectionClosed, Navd, ReplyTimeout, navd_binary

PUSH = [{"op": "push", "item": {"id": "home", "title": "Home"}}]


def title(text: str) -> dict:
    return {"op": "updateNavigationItem", "item": "home", "set": {"title": text}}


def subscribers_of(connection, scene: str) -> int:
    scenes = {s["name"]: s for s in connection.call("io.navd.ListScenes")["scenes"]}
    return scenes[scene]["subscribers"] if scene in scenes else 0


def test_idle_connections_are_closed_and_free_their_slots():
    """§2 Stalled and idle connections: with --idle-timeout 1 and 3 slots, silent clients are
    closed (EOF) and a new client is served; a subscription is never idle."""
    with Navd(["--idle-timeout", "1", "--max-connections", "3"], name="idle") as navd:
        with navd.connect() as subscriber, navd.connect() as silent, navd.connect() as other_silent:
            subscriber.send("io.navd.Subscribe", {"scene": "main"}, more=True)
            assert subscriber.recv()["parameters"]["kind"] == "snapshot"
            with navd.connect() as turned_away:
                assert turned_away.recv(timeout=5)["error"] == "io.navd.LimitExceeded"
            assert silent.is_closed_by_peer(timeout=5)
            assert other_silent.is_closed_by_peer(timeout=5)
            assert navd.wait_for_log(r"idle timeout", count=2)
            with navd.connect() as writer:
                version = writer.call("io.navd.Mutate", {"scene": "main", "ops": PUSH})["version"]
            update = subscriber.recv(timeout=5)["parameters"]
            assert update["kind"] == "update" and update["toVersion"] == version


def test_stalled_subscriber_is_disconnected_without_further_updates():
    """§2 Stalled and idle connections: a subscriber that stops reading is closed after
    --subscriber-stall-seconds although no update follows, and is counted out."""
    with Navd(["--subscriber-stall-seconds", "1", "--idle-timeout", "0"], name="stall") as navd:
        stalled = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect(navd.socket_path)
        try:
            with navd.connect() as writer:
                writer.call("io.navd.Mutate", {"scene": "stall", "ops": PUSH})
                stalled.sendall(b'{"method":"io.navd.Subscribe","parameters":{"scene":"stall"},"more":true}\0')
                deadline = time.monotonic() + DEFAULT_TIMEOUT
                while subscribers_of(writer, "stall") != 1 and time.monotonic() < deadline:
                    time.sleep(0.01)
                assert subscribers_of(writer, "stall") == 1
                # Far more than the socket buffers hold (the subscriber reads nothing), then silence.
                # Each version pushes or pops, so it carries events and is an update of its own
                # (pipelined title changes alone would reach the subscriber as one update per
                # commit group, PROTOCOL.md §6 "Gap-free").
                batch = b"".join(
                    b'{"method":"io.navd.Mutate","parameters":{"scene":"stall","ops":[{"op":"push",'
                    b'"item":{"id":"next","title":"' + (b"%04d" % n) * 60 + b'"}}]}}\0'
                    if n % 2 == 0 else
                    b'{"method":"io.navd.Mutate","parameters":{"scene":"stall","ops":[{"op":"pop"}]}}\0'
                    for n in range(2000)
                )
                writer.send_raw(batch)
                for _ in range(2000):
                    assert "error" not in writer.recv(timeout=10)
                silent_since = time.monotonic()
                assert navd.wait_for_log(r"stall timeout", timeout=10), navd.log()
                assert time.monotonic() - silent_since < 5
                deadline = time.monotonic() + DEFAULT_TIMEOUT
                while subscribers_of(writer, "stall") != 0 and time.monotonic() < deadline:
                    time.sleep(0.01)
                assert subscribers_of(writer, "stall") == 0
        finally:
            stalled.close()


def test_clients_beyond_the_file_descriptor_limit_read_limit_exceeded(tmp_path):
    """§2 When navd turns a connection away: out of file descriptors (EMFILE), navd still
    answers each waiting client LimitExceeded (limit fileDescriptors) through its spare
    descriptor, and keeps serving the connections it has."""
    wrapper = tmp_path / "navd-few-fds"
    wrapper.write_text(f'#!/bin/sh\nulimit -n 48 && exec "{navd_binary()}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    navd = Navd(name="emfile", env={"NAVD_BIN": str(wrapper)})
    navd.binary = wrapper
    with navd:
        clients = []
        try:
            served, limits = 0, {}
            for _ in range(80):
                connection = navd.connect(timeout=5)
                clients.append(connection)
                try:
                    connection.send("org.varlink.service.GetInfo")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # turned away and closed before the call: the reply is still readable
                try:
                    reply = connection.recv(timeout=5)
                except (ConnectionClosed, ReplyTimeout) as error:
                    raise AssertionError(f"connection {len(clients)} got no reply: {error}") from None
                if "error" in reply:
                    assert reply["error"] == "io.navd.LimitExceeded", reply
                    limit = reply["parameters"]["limit"]
                    limits[limit] = limits.get(limit, 0) + 1
                else:
                    served += 1
            print(f"served {served}, turned away {limits}")
            assert served >= 10
            assert limits.get("fileDescriptors", 0) >= 10
            reply = clients[0].call("org.varlink.service.GetInfo")
            assert reply["vendor"] == "navd"
        finally:
            for connection in clients:
                connection.close()
        assert navd.alive()
