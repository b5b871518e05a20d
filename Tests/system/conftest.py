"""Fixtures of the system test: two builds of the Debian package (one release build,
two versions, for the upgrade) and one container booted for the whole module."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from container import Container, log  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(config, items):
    reason = None
    if os.geteuid() != 0:
        reason = "needs root (systemd-nspawn, cgroups, mount namespaces); CI runs as root"
    elif not all(shutil.which(tool) for tool in ("systemd-nspawn", "mmdebstrap", "nsenter", "unshare")):
        reason = "needs systemd-container and mmdebstrap (scripts/setup --tests installs them)"
    if reason:
        for item in items:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def packages():
    """navd_V-1 and navd_V-2 (same release build, two versions): NAVD_DEB and
    NAVD_DEB_NEXT when scripts/test built them, else built here."""
    given = os.environ.get("NAVD_DEB"), os.environ.get("NAVD_DEB_NEXT")
    if all(given):
        yield [Path(p) for p in given]
        return
    out = Path(tempfile.mkdtemp(prefix="navd-debs-"))
    first = subprocess.run([str(REPO / "scripts" / "package"), "--out", str(out)], check=True,
                           stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1]
    version = Path(first).name.split("_")[1]
    second = subprocess.run(
        [str(REPO / "scripts" / "package"), "--no-build", "--no-lintian", "--out", str(out),
         "--version", version.rsplit("-", 1)[0] + "-" + str(int(version.rsplit("-", 1)[1]) + 1)],
        check=True, stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1]
    yield [Path(first), Path(second)]
    shutil.rmtree(out, ignore_errors=True)


@pytest.fixture(scope="module")
def container(packages):
    machine = Container()
    try:
        machine.boot()
        for deb in packages:
            machine.put(deb, f"/root/{deb.name}")
        machine.put(Path(__file__).parent / "agent.py", "/usr/local/lib/navd-system-test/agent.py")
        yield machine
    finally:
        if machine.pid1:
            journal = machine.run(["journalctl", "--no-pager", "-o", "short-monotonic", "-n", "300"], check=False)
            (Path(tempfile.gettempdir()) / "navd-system-journal.txt").write_text(journal.stdout)
            log(f"the container's last journal lines: {tempfile.gettempdir()}/navd-system-journal.txt")
        machine.stop()
