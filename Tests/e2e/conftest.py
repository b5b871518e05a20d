"""pytest fixtures for the navd end-to-end suite (see README.md)."""

from __future__ import annotations

import itertools
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from navd_fixture import Navd  # noqa: E402  (Tests/e2e is on sys.path above)

_scene_counter = itertools.count(1)


@pytest.fixture(scope="session")
def navd():
    """One navd shared by the tests that only need an ordinary daemon.
    Tests isolate themselves by using their own scene (`fresh_scene`)."""
    daemon = Navd(name="shared").start()
    try:
        yield daemon
    finally:
        daemon.cleanup()


@pytest.fixture
def fresh_scene(request) -> str:
    """A scene name no other test uses (scene names: SEMANTICS R66)."""
    base = "".join(c if c.isalnum() else "-" for c in request.node.name)[:40].strip("-") or "t"
    return f"{base}-{next(_scene_counter)}"
