"""pytest fixtures for the navd end-to-end suite (see README.md)."""

from __future__ import annotations

import itertools
import os
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from navd_fixture import Navd  # noqa: E402  (Tests/e2e is on sys.path above)

_scene_counter = itertools.count(1)


@pytest.fixture(scope="session", autouse=True)
def _private_state_home():
    """Every navd and navctl a test starts without --state-dir uses $XDG_STATE_HOME/navd
    (STORAGE.md §1): here a temporary directory, never the user's ~/.local/state."""
    directory = tempfile.mkdtemp(prefix="navd-e2e-state-home-")
    saved = {name: os.environ.get(name) for name in ("XDG_STATE_HOME", "STATE_DIRECTORY")}
    os.environ["XDG_STATE_HOME"] = directory
    os.environ.pop("STATE_DIRECTORY", None)
    try:
        yield directory
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(directory, ignore_errors=True)


class _DaemonSlot:
    """The navd a test module shares, replaced as soon as it is found dead."""

    def __init__(self, name: str):
        self.name = name
        self.daemon: Navd | None = None

    def running(self) -> Navd:
        if self.daemon is None or not self.daemon.alive():
            if self.daemon is not None:
                self.daemon.cleanup()
            self.daemon = Navd(name=self.name).start()
        return self.daemon

    def close(self) -> None:
        if self.daemon is not None:
            self.daemon.cleanup()


@pytest.fixture(scope="module")
def _navd_slot(request):
    slot = _DaemonSlot(name=request.module.__name__.rsplit(".", 1)[-1])
    try:
        yield slot
    finally:
        slot.close()


@pytest.fixture
def navd(_navd_slot):
    """One navd per test module, for the tests that only need an ordinary daemon (they isolate
    themselves by using their own scene, `fresh_scene`). Not one per session: a navd that
    crashes fails the test that crashed it — with its log — and the next test gets a new one,
    so one crash cannot fail every later test."""
    daemon = _navd_slot.running()
    yield daemon
    if not daemon.alive():
        log = daemon.log()[-3000:]
        pytest.fail(f"navd exited with {daemon.process.returncode} during this test; stderr:\n{log}")


@pytest.fixture
def fresh_scene(request) -> str:
    """A scene name no other test uses (scene names: SEMANTICS R66)."""
    base = "".join(c if c.isalnum() else "-" for c in request.node.name)[:40].strip("-") or "t"
    return f"{base}-{next(_scene_counter)}"
