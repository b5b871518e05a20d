"""issue 10, Units: the units scripts/install installs pass `systemd-analyze verify` with
no output at all (it exits 0 even on unknown keys, so stderr is the check), and the
system service's `systemd-analyze security --offline=true` exposure is at most 1.0."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from navd_fixture import REPO_ROOT, navd_binary

ANALYZE = shutil.which("systemd-analyze")
pytestmark = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze missing (scripts/setup installs systemd)")


@pytest.fixture(scope="module")
def staged():
    """scripts/install --units-only into a temporary DESTDIR, with a prefix whose bin/navd
    is the navd under test (verify fails when ExecStart's binary is missing)."""
    root = Path(tempfile.mkdtemp(prefix="navd-units-"))
    prefix = root / "prefix"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "navd").symlink_to(navd_binary())
    destdir = root / "dest"
    subprocess.run(
        [str(REPO_ROOT / "scripts" / "install"), "--units-only", "--prefix", str(prefix), "--destdir", str(destdir)],
        check=True, capture_output=True, timeout=60)
    lib = destdir / str(prefix).lstrip("/") / "lib"
    yield {"system": lib / "systemd" / "system", "user": lib / "systemd" / "user", "lib": lib,
           "etc": destdir / "etc", "root": root, "prefix": prefix}
    shutil.rmtree(root, ignore_errors=True)


def analyze(*args: str, user: bool = False, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())
    command = [ANALYZE, *(["--user"] if user else []), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=cwd, env=env)


def test_install_puts_units_snippets_and_configuration_in_place(staged):
    """scripts/install: units (ExecStart under the prefix), sysusers.d, tmpfiles.d, navd.conf."""
    service = (staged["system"] / "navd.service").read_text()
    assert f"ExecStart={staged['prefix']}/bin/navd" in service
    assert "@BINDIR@" not in service
    assert (staged["lib"] / "sysusers.d" / "navd.conf").read_text().startswith("#")
    assert (staged["lib"] / "tmpfiles.d" / "navd.conf").exists()
    assert (staged["etc"] / "navd" / "navd.conf").read_text() == (REPO_ROOT / "systemd" / "navd.conf").read_text()
    assert (staged["etc"] / "navd" / "navd.conf.d").is_dir()


@pytest.mark.parametrize("instance", ["system", "user"])
def test_systemd_analyze_verify_is_silent(staged, instance):
    """systemd-analyze verify of every unit: exit 0 and nothing on stdout or stderr."""
    directory = staged[instance]
    result = analyze("verify", "--man=no", "navd.socket", "navd.service", user=instance == "user", cwd=directory)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout == "", result.stderr + result.stdout


def test_system_service_exposure_at_most_1_0(staged):
    """systemd-analyze security --offline=true: the system service scores ≤ 1.0
    (--threshold is on the internal 0–100 scale, so 10 is 1.0)."""
    result = analyze("security", "--offline=true", "--threshold=10", "navd.service", cwd=staged["system"])
    assert result.returncode == 0, result.stdout + result.stderr
    level = re.search(r"Overall exposure level for navd.service: (\d+\.\d+)", result.stdout)
    assert level, result.stdout
    assert float(level.group(1)) <= 1.0, result.stdout


def test_system_service_keeps_the_contract_of_issue_10(staged):
    """Type=notify, watchdog, fd store, reload by SIGHUP, static user, StateDirectory,
    no RuntimeDirectory (the socket unit owns /run/navd), no PrivateUsers (per-uid policy)."""
    service = (staged["system"] / "navd.service").read_text()
    settings = dict(
        line.split("=", 1) for line in service.splitlines() if "=" in line and not line.startswith("#"))
    assert settings["Type"] == "notify"
    assert settings["ExecReload"] == "/bin/kill -HUP $MAINPID"
    assert settings["WatchdogSec"] and int(settings["FileDescriptorStoreMax"]) > 0
    assert settings["User"] == "navd" and settings["StateDirectory"] == "navd"
    assert "RuntimeDirectory" not in settings and "PrivateUsers" not in settings
    socket_unit = (staged["system"] / "navd.socket").read_text()
    assert "ListenStream=/run/navd/navd.sock" in socket_unit and "SocketGroup=navd" in socket_unit
    assert "FileDescriptorName=navd" in socket_unit
    assert "ListenStream=%t/navd/navd.sock" in (staged["user"] / "navd.socket").read_text()


def settings_of(unit: Path) -> list[tuple[str, str]]:
    return [tuple(line.split("=", 1)) for line in unit.read_text().splitlines()
            if "=" in line and not line.startswith("#")]


def test_user_service_exposure_at_most_3_0(staged):
    """issue 26: the user unit scores ≤ 3.0 too (user units are scored with XDG_RUNTIME_DIR set)."""
    result = analyze("security", "--offline=true", "--threshold=30", "navd.service", user=True, cwd=staged["user"])
    assert result.returncode == 0, result.stdout + result.stderr
    level = re.search(r"Overall exposure level for navd.service: (\d+\.\d+)", result.stdout)
    assert level and float(level.group(1)) <= 3.0, result.stdout


@pytest.mark.parametrize("instance", ["system", "user"])
def test_the_syscall_filter_lets_navd_lower_its_redo_thread(staged, instance):
    """issue 26: ~@resources denies setpriority on 252, so the filter gives it back
    afterwards (the last assignment wins for the calls it names)."""
    filters = [value for key, value in settings_of(staged[instance] / "navd.service") if key == "SystemCallFilter"]
    assert filters[0] == "@system-service" and "@resources" in filters[1] and filters[1].startswith("~")
    assert filters[-1] == "setpriority"


def test_the_user_unit_keeps_its_state_where_navctl_looks(staged):
    """issue 26: no StateDirectory= (252 puts it under ~/.config); the XDG default,
    ~/.local/state/navd, created before the sandbox and the one path it may write."""
    settings = settings_of(staged["user"] / "navd.service")
    keys = [key for key, _ in settings]
    assert "StateDirectory" not in keys
    values = dict(settings)
    assert values["ExecStart"].endswith("/navd --state-dir %h/.local/state/navd")
    assert values["ExecStartPre"] == "+/bin/mkdir -p %h/.local/state/navd"
    assert values["ReadWritePaths"] == "%h/.local/state/navd" and values["ProtectHome"] == "read-only"


def test_the_socket_group_is_granted_by_the_shipped_configuration(staged):
    """issue 26: navd.socket opens the socket to group navd (0660); the shipped navd.conf
    has the policy line that lets that group in (read), and tmpfiles.d leaves /etc alone."""
    socket_settings = dict(settings_of(staged["system"] / "navd.socket"))
    assert (socket_settings["SocketGroup"], socket_settings["SocketMode"]) == ("navd", "0660")
    conf = (staged["etc"] / "navd" / "navd.conf").read_text()
    assert re.search(r"^\[Access\]$(?:\n#.*)*\nAllow=group:navd read$", conf, re.M), conf
    tmpfiles = [line for line in (staged["lib"] / "tmpfiles.d" / "navd.conf").read_text().splitlines()
                if line and not line.startswith("#")]
    assert tmpfiles == ["d /var/lib/navd 0700 navd navd -"]
