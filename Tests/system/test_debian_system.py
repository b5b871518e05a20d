"""issue 26: navd installed from its Debian package on Debian 12, under Debian's own
systemd 252 as PID 1 (container.py), checked against the real service manager.

The tests run in this file's order on one container: install, socket activation,
notify/status, access, reload, the journal, hardening, the restarts (stop, fd-store
handover, crash, watchdog), backup and restore, the user instance, upgrade, remove,
purge. Each check is an assertion on what systemd, the journal or a client sees."""

from __future__ import annotations

import json
import re
import time

import pytest

from client import Agent, wait_until

SOCKET = "/run/navd/navd.sock"
DENIED = "org.varlink.service.PermissionDenied"
PUSH_ROOT = [{"op": "push", "item": {"id": "root", "title": "Root"}}]
# navd(8), JOURNAL: the MESSAGE_ID of each kind of event and its PRIORITY.
READY_ID, RELOADED_ID = "e2abb62b1f2e4d97b1b9d02e2662eacc", "a5f301595ca84255ae18ee0c2cff1b7a"
ACCEPTED_ID, REJECTED_ID = "2ba234ba6ac841c7a0f84219a98f10a0", "4c504932d6ab4ff3a51c4bdce28011d5"
STOPPING_ID = "0d377445997142bd8cdc183a1622e522"


def title(text: str) -> list[dict]:
    return [{"op": "updateNavigationItem", "item": "root", "set": {"title": text}}]


def show(container, prop: str, unit: str = "navd.service") -> str:
    return container.run(["systemctl", "show", "-p", prop, "--value", unit]).stdout.strip()


def allow_restarts(container) -> None:
    """These tests restart navd more often than StartLimitBurst= allows in
    StartLimitIntervalSec= (5 in 10 s); reset-failed resets that count."""
    container.run(["systemctl", "reset-failed", "navd.service"])


def main_pid(container) -> int:
    return int(show(container, "MainPID"))


def navd_processes(container) -> list[str]:
    return container.run(["pgrep", "-x", "navd"], check=False).stdout.split()


def journal(container, *match: str) -> list[dict]:
    output = container.run(["journalctl", "-o", "json", "--no-pager", *match]).stdout
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def navd_entries(container, message_id: str) -> list[dict]:
    return journal(container, "SYSLOG_IDENTIFIER=navd", f"MESSAGE_ID={message_id}")


@pytest.fixture(scope="module")
def root_agent(container):
    agent = Agent(container)
    yield agent
    agent.close()


@pytest.fixture(scope="module")
def users(container):
    """alice: a member of group navd; carol: not. Made once the package made the group."""
    container.shell("useradd -m -G navd alice && useradd -m carol")
    return {"alice": "alice", "carol": "carol"}


# --- install ----------------------------------------------------------------------------

def test_dpkg_installs_the_package_with_users_directories_and_units(container, packages):
    result = container.run(["dpkg", "-i", f"/root/{packages[0].name}"], check=False, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    # systemd-sysusers: the static user and group; systemd-tmpfiles: the state directory.
    assert container.run(["getent", "passwd", "navd"]).stdout.split(":")[5] == "/var/lib/navd"
    assert container.run(["getent", "group", "navd"]).stdout.startswith("navd:")
    assert container.shell("stat -c '%U:%G %a' /var/lib/navd").strip() == "navd:navd 700"
    # The socket enabled and listening; navd itself not started (socket activation).
    assert container.run(["systemctl", "is-enabled", "navd.socket"]).stdout.strip() == "enabled"
    assert show(container, "ActiveState", "navd.socket") == "active"
    assert show(container, "ActiveState") == "inactive"
    assert navd_processes(container) == []
    assert container.shell(f"stat -c '%U:%G %a' {SOCKET}").strip() == "root:navd 660"
    # What the package holds, the Debian way.
    files = container.run(["dpkg", "-L", "navd"]).stdout.split()
    for expected in ["/usr/bin/navd", "/usr/bin/navctl", "/usr/share/man/man8/navd.8.gz",
                     "/usr/share/man/man1/navctl.1.gz", "/usr/share/bash-completion/completions/navctl",
                     "/usr/share/zsh/vendor-completions/_navctl", "/usr/share/fish/vendor_completions.d/navctl.fish",
                     "/usr/share/doc/navd/PROTOCOL.md", "/usr/share/doc/navd/STORAGE.md",
                     "/usr/share/doc/navd/copyright", "/usr/share/doc/navd/changelog.Debian.gz",
                     "/usr/lib/systemd/user/navd.socket", "/etc/navd/navd.conf"]:
        assert expected in files, expected
    assert not any("navbench" in path for path in files)
    assert container.run(["dpkg-query", "-W", "-f=${Conffiles}", "navd"]).stdout.split()[0] == "/etc/navd/navd.conf"
    assert "/etc" not in container.run(["cat", "/usr/lib/tmpfiles.d/navd.conf"]).stdout.replace("# ", "").split(
        "\nd ", 1)[-1], "tmpfiles.d does not create /etc/navd"
    pages = container.shell("zcat /usr/share/man/man8/navd.8.gz /usr/share/man/man1/navctl.1.gz")
    assert "varlinkctl call" not in pages and "BR varlinkctl" not in pages, "Debian 12 has no varlinkctl"


def test_the_first_connection_starts_navd_and_is_answered(container, root_agent):
    assert navd_processes(container) == []
    assert root_agent.connect("first") == {"ok": True}
    info = root_agent.call("first", "io.navd.GetServerInfo")
    assert show(container, "ActiveState") == "active" and show(container, "SubState") == "running"
    assert info["pid"] == main_pid(container), "the navd that answered is the service's main process"
    assert show(container, "TriggeredBy") == "navd.socket"


def test_type_notify_ready_and_status_text(container, root_agent):
    # Type=notify: "active (running)" is systemd's record of READY=1.
    assert show(container, "Type") == "notify"
    assert show(container, "StatusText").startswith("serving: 1 scene, ")
    assert root_agent.call("first", "io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})["version"] == 1
    wait_until(lambda: "newest version 1 (main)" in show(container, "StatusText"), 10, "STATUS= with version 1")
    assert navd_entries(container, READY_ID)[-1]["PRIORITY"] == "5"


# --- access -------------------------------------------------------------------------

def test_group_navd_reads_by_the_shipped_policy_line_and_others_are_refused(container, users):
    alice, carol = Agent(container, "alice"), Agent(container, "carol")
    try:
        assert alice.connect("a") == {"ok": True}
        assert alice.call("a", "io.navd.GetState", {"scene": "main"})["version"] == 1
        denied = alice.call_raw("a", "io.navd.Mutate", {"scene": "main", "ops": title("by alice")})
        assert denied["error"] == DENIED and denied["parameters"]["right"] == "write"
        # Not in group navd: the socket's mode (root:navd 0660) refuses the connection.
        refused = carol.connect("c")
        assert refused.get("oserror") == 13, refused
    finally:
        alice.close()
        carol.close()
    entry = wait_until(lambda: [e for e in navd_entries(container, REJECTED_ID) if e.get("RIGHT") == "write"],
                       10, "the denial in the journal")[-1]
    uid = container.run(["id", "-u", "alice"]).stdout.strip()
    assert (entry["PRIORITY"], entry["SCENE"], entry["CLIENT_UID"]) == ("6", "main", uid)
    assert int(entry["CLIENT_PID"]) > 0 and entry["CLIENT_GID"]


def test_reload_is_reloading_then_ready_with_the_changed_policy_in_force(container, users, root_agent):
    container.shell("mkdir -p /etc/navd/navd.conf.d && printf '[Access]\\nAllow=user:alice write\\n"
                    "[Log]\\nLevel=debug\\n' > /etc/navd/navd.conf.d/50-test.conf")
    pid = main_pid(container)
    since = container.shell("date +%s.%N").strip()
    container.run(["systemctl", "reload", "navd.service"])
    assert main_pid(container) == pid, "a reload keeps the process"
    # RELOADING=1 puts the unit in "reloading"; READY=1 ends it: systemd logs both ends.
    manager = [e["MESSAGE"] for e in journal(container, "_PID=1", "--since", f"@{since}")]
    assert any(m.startswith("Reloading navd") for m in manager), manager
    assert any(m.startswith("Reloaded navd") for m in manager), manager
    assert show(container, "ActiveState") == "active" and show(container, "SubState") == "running"
    assert navd_entries(container, RELOADED_ID)[-1]["PRIORITY"] == "5"
    alice = Agent(container, "alice")
    try:
        alice.connect("a")
        assert alice.call("a", "io.navd.Mutate", {"scene": "main", "ops": title("by alice")})["version"] == 2
    finally:
        alice.close()
    # Level=debug is in force too: a connection accepted, with the client's fields.
    accepted = wait_until(lambda: navd_entries(container, ACCEPTED_ID), 10, "a debug record")[-1]
    assert accepted["PRIORITY"] == "7" and accepted["CLIENT_UID"] == container.run(["id", "-u", "alice"]).stdout.strip()


def test_the_journal_has_navds_message_ids_and_fields(container, root_agent):
    # A baseVersion ahead of the scene: the error carries the scene's version.
    stale = root_agent.call_raw("first", "io.navd.Mutate", {"scene": "main", "baseVersion": 99, "ops": title("x")})
    assert stale["error"] == "io.navd.InvalidMutation" and stale["parameters"]["currentVersion"] == 2, stale
    entry = wait_until(lambda: [e for e in navd_entries(container, REJECTED_ID) if "VERSION" in e], 10,
                       "a call-rejected record with VERSION")[-1]
    assert entry["VERSION"] == "2" and entry["CLIENT_UID"] == "0" and entry["_SYSTEMD_UNIT"] == "navd.service"
    ready = navd_entries(container, READY_ID)[-1]
    assert ready["SYSLOG_IDENTIFIER"] == "navd" and ready["MESSAGE"] == "ready"


# --- hardening ----------------------------------------------------------------------

def test_the_redo_thread_runs_at_nice_10_under_the_syscall_filter(container):
    pid = main_pid(container)
    threads = container.shell(f"for t in /proc/{pid}/task/*; do echo \"$(cat $t/comm) $(cut -d' ' -f19 $t/stat)\"; done")
    nice = dict(line.rsplit(" ", 1) for line in threads.splitlines())
    assert nice.get("navd-redo") == "10", threads
    assert nice["navd"] == "0", "only the redo thread is lowered"


def test_writes_outside_the_state_and_runtime_directories_fail(container):
    pid = main_pid(container)
    inside = ["nsenter", "--target", str(pid), "--mount", "--setuid", container.run(
        ["id", "-u", "navd"]).stdout.strip(), "--setgid", container.run(["id", "-g", "navd"]).stdout.strip(), "--"]
    for path in ["/etc/navd/x", "/usr/x", "/var/lib/x", "/run/x", "/run/navd/x", "/root/x", "/home/x"]:
        result = container.run([*inside, "touch", path], check=False)
        assert result.returncode != 0 and ("Read-only" in result.stderr or "Permission denied" in result.stderr
                                           or "No such file" in result.stderr), (path, result.stderr)
    container.run([*inside, "touch", "/var/lib/navd/probe"])
    container.run([*inside, "rm", "/var/lib/navd/probe"])
    # PrivateTmp=: navd's /tmp and /var/tmp are its own.
    for directory in ["/tmp", "/var/tmp"]:
        container.run([*inside, "touch", f"{directory}/navd-probe"])
        assert container.run(["test", "-e", f"{directory}/navd-probe"], check=False).returncode != 0


def test_systemd_analyze_security_of_the_system_service(container):
    result = container.run(["systemd-analyze", "security", "navd.service"], check=False)
    level = re.search(r"Overall exposure level for navd.service: (\d+\.\d+)", result.stdout)
    assert level and float(level.group(1)) <= 1.0, result.stdout[-2000:]


# --- stop, restarts, crash, watchdog -------------------------------------------------

def test_stop_ends_streams_with_server_stopping_and_the_socket_stays(container, root_agent):
    root_agent.connect("sub")
    root_agent.send("sub", "io.navd.Subscribe", {"scene": "main", "view": "state"}, more=True)
    assert root_agent.recv("sub")["reply"]["parameters"]["kind"] == "snapshot"
    container.run(["systemctl", "stop", "navd.service"], timeout=60)
    final = root_agent.recv("sub")["reply"]
    assert final["error"] == "io.navd.ServerStopping" and final["parameters"]["restarting"] is False, final
    assert root_agent.recv("sub") == {"eof": True}
    assert show(container, "ActiveState") == "inactive" and navd_processes(container) == []
    assert show(container, "ActiveState", "navd.socket") == "active"
    root_agent.connect("first")
    assert root_agent.call("first", "io.navd.GetState", {"scene": "main"})["version"] == 2, "state kept"


def test_the_fd_store_restart_keeps_clients_and_subscribers_resume(container, root_agent):
    allow_restarts(container)
    root_agent.connect("sub")
    root_agent.send("sub", "io.navd.Subscribe", {"scene": "main", "view": "state"}, more=True)
    assert root_agent.recv("sub")["reply"]["parameters"]["version"] == 2
    before, restarts = main_pid(container), int(show(container, "NRestarts"))
    container.run(["systemctl", "kill", "--kill-who=main", "--signal=USR2", "navd.service"])
    wait_until(lambda: main_pid(container) not in (0, before) and show(container, "SubState") == "running", 20,
               "the next navd")
    assert int(show(container, "NRestarts")) == restarts + 1
    assert root_agent.call("first", "io.navd.Mutate", {"scene": "main", "ops": title("after")})["version"] == 3
    resumed = root_agent.recv("sub")["reply"]["parameters"]
    assert resumed.get("kind") != "snapshot" and (resumed["fromVersion"], resumed["toVersion"]) == (2, 3), resumed
    assert root_agent.call("first", "io.navd.GetServerInfo")["pid"] == main_pid(container)
    root_agent.request(op="close", conn="sub")


def test_systemctl_restart_is_a_stop_and_a_start(container, root_agent):
    """navd(8), RESTARTS: `systemctl restart` ends streams with restarting false (the
    hand-over that keeps clients is `systemctl kill -s USR2`); the state carries over."""
    root_agent.connect("sub")
    root_agent.send("sub", "io.navd.Subscribe", {"scene": "main", "view": "state"}, more=True)
    version = root_agent.recv("sub")["reply"]["parameters"]["version"]
    before = main_pid(container)
    container.run(["systemctl", "restart", "navd.service"], timeout=60)
    final = root_agent.recv("sub")["reply"]
    assert final["error"] == "io.navd.ServerStopping" and final["parameters"]["restarting"] is False, final
    assert main_pid(container) not in (0, before)
    root_agent.connect("first")
    assert root_agent.call("first", "io.navd.GetState", {"scene": "main"})["version"] == version


@pytest.mark.parametrize("signal", ["SEGV", "KILL"])
def test_restart_after_a_crash_loses_no_acknowledged_mutation(container, root_agent, signal):
    allow_restarts(container)
    acknowledged = 0
    for n in range(20):
        acknowledged = root_agent.call("first", "io.navd.Mutate",
                                       {"scene": "main", "ops": title(f"{signal} {n}")})["version"]
    before = main_pid(container)
    container.run(["kill", f"-{signal}", str(before)])
    wait_until(lambda: show(container, "ActiveState") != "active" or main_pid(container) != before, 10, "the crash")
    # Restart=on-failure starts navd again at once; the next connection is served by it.
    wait_until(lambda: main_pid(container) not in (0, before) and show(container, "SubState") == "running", 20,
               "systemd's restart")
    assert show(container, "Result") in ("success", "signal", "core-dump") and int(show(container, "NRestarts")) > 0
    root_agent.connect("first")
    state = root_agent.call("first", "io.navd.GetState", {"scene": "main"})
    assert state["version"] == acknowledged
    assert f'"{signal} 19"' in json.dumps(state["state"]), state


def test_the_watchdog_restarts_a_stopped_navd_within_watchdog_sec(container, root_agent):
    allow_restarts(container)
    container.shell("mkdir -p /etc/systemd/system/navd.service.d && "
                    "printf '[Service]\\nWatchdogSec=3s\\n' > /etc/systemd/system/navd.service.d/50-test.conf && "
                    "systemctl daemon-reload && systemctl restart navd.service")
    try:
        assert show(container, "WatchdogUSec") == "3s"
        before = main_pid(container)
        container.run(["kill", "-STOP", str(before)])
        stopped = time.monotonic()
        wait_until(lambda: main_pid(container) not in (0, before) and show(container, "SubState") == "running",
                   15, "the watchdog's restart")
        elapsed = time.monotonic() - stopped
        assert elapsed <= 3 + 3, f"restarted {elapsed:.1f} s after the loop stopped (WatchdogSec=3s)"
        manager = [e["MESSAGE"] for e in journal(container, "_PID=1", "-u", "navd.service")]
        assert any("Watchdog timeout" in m for m in manager), manager[-10:]
    finally:
        container.shell("rm -f /etc/systemd/system/navd.service.d/50-test.conf && systemctl daemon-reload "
                        "&& systemctl restart navd.service")
    root_agent.connect("first")
    assert root_agent.call("first", "io.navd.GetState", {"scene": "main"})["version"] >= 3


# --- backup and restore (navd(8), EXAMPLES and STATE) ---------------------------------

def test_backup_and_restore_of_the_system_service_as_root(container, root_agent):
    """navd(8), STATE: the recovery recipe for the system service, as root, as written."""
    version = root_agent.call("first", "io.navd.GetState", {"scene": "main"})["version"]
    # A navd that will not start (as after a damaged database): nothing serves meanwhile.
    container.run(["systemctl", "stop", "navd.socket", "navd.service"])
    page = container.shell("zcat /usr/share/man/man8/navd.8.gz")
    recipe = page[page.index("For the system service, as root:"):]
    recipe = recipe[recipe.index(".RS\n") + 4:recipe.index("\n.RE")]
    commands = [line.replace("\\-", "-") for line in recipe.splitlines()]
    assert commands[0].startswith("navctl export") and commands[-2].startswith("navctl import"), commands
    try:
        container.shell("cd /root && " + " && ".join(commands))
        assert container.shell("stat -c '%U %a' /var/lib/navd/navd.db").strip() == "navd 600"
        assert container.run(["test", "-e", "/var/lib/navd/navd.db.damaged"], check=False).returncode == 0
    finally:
        container.run(["systemctl", "start", "navd.socket"])
    root_agent.connect("first")
    state = root_agent.call("first", "io.navd.GetState", {"scene": "main"})
    assert state["version"] == version


# --- the user instance ----------------------------------------------------------------

def test_the_user_instance_with_lingering(container):
    container.shell("useradd -m dave && loginctl enable-linger dave")
    uid = container.run(["id", "-u", "dave"]).stdout.strip()
    wait_until(lambda: container.run(["systemctl", "is-active", f"user@{uid}.service"], check=False).stdout.strip()
               == "active", 20, "dave's user manager")
    container.run(["systemctl", "--user", "enable", "--now", "navd.socket"], user="dave")
    socket_path = f"/run/user/{uid}/navd/navd.sock"
    assert container.shell(f"stat -c '%U %a' {socket_path}").strip() == "dave 600"
    dave = Agent(container, "dave")
    try:
        assert dave.connect("d", socket_path) == {"ok": True}
        assert dave.call("d", "io.navd.Mutate", {"scene": "main", "ops": PUSH_ROOT})["version"] == 1
        pid = int(container.run(["systemctl", "--user", "show", "-p", "MainPID", "--value", "navd.service"],
                                user="dave").stdout)
        assert pid == dave.call("d", "io.navd.GetServerInfo")["pid"]
        # The state is where navctl looks by default (XDG: ~/.local/state/navd).
        assert container.shell("stat -c '%U %a' /home/dave/.local/state/navd/navd.db").strip() == "dave 600"
        threads = container.shell(f"cat /proc/{pid}/task/*/comm; cut -d' ' -f19 /proc/{pid}/task/*/stat")
        names, nices = threads.split()[: len(threads.split()) // 2], threads.split()[len(threads.split()) // 2:]
        assert dict(zip(names, nices)).get("navd-redo") == "10", threads
    finally:
        dave.close()
    security = container.run(["systemd-analyze", "--user", "security", "navd.service"], user="dave", check=False)
    level = re.search(r"Overall exposure level for navd.service: (\d+\.\d+)", security.stdout)
    assert level and float(level.group(1)) <= 3.0, security.stdout[-2000:] + security.stderr


def test_navctl_finds_the_user_instances_state_by_default(container):
    # Without --state-dir and without XDG_STATE_HOME: ~/.local/state/navd, the unit's.
    exported = container.run(["sh", "-c", "cd && navctl export"], user="dave", check=False)
    assert exported.returncode == 0 and '"main"' in exported.stdout, exported.stderr


# --- upgrade, remove, purge -----------------------------------------------------------

def test_an_upgrade_keeps_the_socket_and_the_connected_clients(container, root_agent, packages):
    root_agent.connect("first")
    version = root_agent.call("first", "io.navd.GetState", {"scene": "main"})["version"]
    root_agent.connect("sub")
    root_agent.send("sub", "io.navd.Subscribe", {"scene": "main", "view": "state"}, more=True)
    assert root_agent.recv("sub")["reply"]["parameters"]["version"] == version
    socket_since = show(container, "ActiveEnterTimestampMonotonic", "navd.socket")
    inode = container.shell(f"stat -c %i {SOCKET}")
    before = main_pid(container)
    result = container.run(["dpkg", "-i", f"/root/{packages[1].name}"], check=False, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    new_version = packages[1].name.split("_")[1]
    assert container.run(["dpkg-query", "-W", "-f=${Version}", "navd"]).stdout == new_version
    assert show(container, "ActiveEnterTimestampMonotonic", "navd.socket") == socket_since, "the socket unit stayed"
    assert container.shell(f"stat -c %i {SOCKET}") == inode
    wait_until(lambda: main_pid(container) not in (0, before) and show(container, "SubState") == "running", 20,
               "the upgraded navd")
    # The same connections, served by the new navd.
    assert root_agent.call("first", "io.navd.GetServerInfo")["pid"] == main_pid(container)
    assert root_agent.call("first", "io.navd.Mutate", {"scene": "main", "ops": title("upgraded")})["version"] \
        == version + 1
    resumed = root_agent.recv("sub")["reply"]["parameters"]
    assert resumed["toVersion"] == version + 1, resumed
    root_agent.request(op="close", conn="sub")
    root_agent.request(op="close", conn="first")


def test_remove_keeps_configuration_and_state_and_purge_deletes_them(container):
    container.run(["dpkg", "-r", "navd"], timeout=120)
    assert container.run(["pgrep", "-u", "navd", "-x", "navd"], check=False).stdout == "", "the system navd stopped"
    assert container.run(["systemctl", "is-active", "navd.socket"], check=False).stdout.strip() == "inactive"
    assert container.run(["test", "-e", "/usr/bin/navd"], check=False).returncode != 0
    assert container.run(["test", "-e", SOCKET], check=False).returncode != 0
    assert container.run(["test", "-f", "/etc/navd/navd.conf"], check=False).returncode == 0, "a conffile stays"
    assert container.run(["test", "-f", "/var/lib/navd/navd.db"], check=False).returncode == 0
    container.run(["dpkg", "-P", "navd"], timeout=120)
    for path in ["/etc/navd/navd.conf", "/var/lib/navd", "/etc/systemd/system/sockets.target.wants/navd.socket",
                 "/usr/lib/systemd/system/navd.socket"]:
        assert container.run(["test", "-e", path], check=False).returncode != 0, path
    assert container.run(["dpkg-query", "-W", "navd"], check=False).returncode != 0
    assert show(container, "LoadState", "navd.socket") == "not-found"
