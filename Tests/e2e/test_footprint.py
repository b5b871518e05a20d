"""What the navd daemon links, and what that costs it at idle (issue 12: idle RSS ≤ 16 MiB,
start-up ≤ 10 ms).

navd builds on the Swift standard library, Dispatch, Synchronization and Glibc only:
Foundation (with ICU) alone cost it 12 MiB of resident memory at idle and most of its
start-up time. The client tools (navctl, navbench) may link Foundation; the daemon may not.
libsystemd (and the six libraries behind it) is loaded only when a service manager is
there (Sources/CSystemd/include/CSystemd.h): by hand, navd never maps it.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from navd_fixture import Navd, navd_binary
from systemd_harness import ActivatedNavd, NotifyListener, listening_socket

FOUNDATION_LIBRARIES = ("libFoundation.so", "libFoundationEssentials.so", "libFoundationInternationalization.so",
                        "lib_FoundationICU.so")


def mapped_files(pid: int) -> set[str]:
    names = set()
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[5].startswith("/"):
            names.add(Path(fields[5]).name)
    return names


def test_the_daemon_maps_no_foundation_library():
    """README ("The daemon links no Foundation"): a running navd has none of Foundation's libraries mapped."""
    with Navd(name="footprint") as navd:
        mapped = mapped_files(navd.pid)
        assert Path(f"/proc/{navd.pid}/exe").resolve() == navd.binary.resolve(), "the check reads the wrong process"
        assert not [name for name in mapped if name in FOUNDATION_LIBRARIES], sorted(mapped)


def test_a_navd_started_by_hand_maps_no_libsystemd():
    """Started by hand (no LISTEN_FDS, NOTIFY_SOCKET or WATCHDOG_USEC, no journald), navd
    serves without loading libsystemd or anything behind it."""
    with Navd(name="footprint-systemd", args=["--log-target", "auto"]) as navd:
        with navd.connect() as connection:
            connection.call("io.navd.GetServerInfo", {})
        mapped = mapped_files(navd.pid)
        assert not [name for name in mapped if name.startswith(("libsystemd", "libgcrypt", "liblz4"))], sorted(mapped)


def test_a_navd_under_a_service_manager_loads_libsystemd():
    """With sockets passed and NOTIFY_SOCKET set (issue 10's harness), navd loads libsystemd,
    serves the passed socket and reports READY=1 through it."""
    directory = tempfile.mkdtemp(prefix="navd-footprint-")
    listener = listening_socket(os.path.join(directory, "navd.sock"))
    notify = NotifyListener()
    navd = ActivatedNavd([listener.fileno()], ["navd"], env={"NOTIFY_SOCKET": notify.path})
    listener.close()
    try:
        navd.wait_listening()
        notify.wait_for("READY", "1")
        assert [name for name in mapped_files(navd.process.pid) if name.startswith("libsystemd.so")]
    finally:
        navd.stop()
        notify.close()


def test_a_libsystemd_that_cannot_be_loaded_stops_the_start_and_says_why():
    """Under a service manager, a libsystemd that cannot be loaded is an error at start
    (exit 1, naming the variables and dlopen's reason), not a service that never reports
    ready or never serves its passed socket."""
    with tempfile.TemporaryDirectory(prefix="navd-footprint-") as directory:
        (Path(directory) / "libsystemd.so.0").write_bytes(b"not a library")
        env = dict(os.environ, LD_LIBRARY_PATH=directory, NOTIFY_SOCKET=os.path.join(directory, "notify"))
        result = subprocess.run(
            [str(navd_binary()), "--socket", os.path.join(directory, "navd.sock"), "--state-dir",
             os.path.join(directory, "state"), "--config", "/dev/null"],
            env=env, cwd=directory, capture_output=True, text=True, timeout=30)
        assert result.returncode == 1, result
        assert "NOTIFY_SOCKET set, but libsystemd cannot be loaded" in result.stderr, result.stderr
        assert "libsystemd.so.0" in result.stderr, result.stderr
        assert not (Path(directory) / "navd.sock").exists()


def test_log_target_journal_needs_libsystemd_too():
    """`--log-target journal` with a libsystemd that cannot be loaded stops the start and
    says so, instead of a navd whose log entries all vanish."""
    with tempfile.TemporaryDirectory(prefix="navd-footprint-") as directory:
        (Path(directory) / "libsystemd.so.0").write_bytes(b"not a library")
        env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "LISTEN_FDS", "WATCHDOG_USEC")}
        env["LD_LIBRARY_PATH"] = directory
        result = subprocess.run(
            [str(navd_binary()), "--socket", os.path.join(directory, "navd.sock"), "--state-dir",
             os.path.join(directory, "state"), "--config", "/dev/null", "--log-target", "journal"],
            env=env, cwd=directory, capture_output=True, text=True, timeout=30)
        assert result.returncode == 1, result
        assert "--log-target journal set, but libsystemd cannot be loaded" in result.stderr, result.stderr
