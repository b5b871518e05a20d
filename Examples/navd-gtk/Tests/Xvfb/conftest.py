"""Fixtures for navd-gtk's tests under Xvfb (Examples/navd-gtk/README.md, "Tests"): a private X server,
a real navd on a temporary socket (Tests/e2e/navd_fixture.py), and navd-gtk processes whose
`--trace` lines the tests wait on. Every wait is bounded; everything started is killed."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parents[1]
REPO = PACKAGE.parents[1]
sys.path.insert(0, str(REPO / "Tests" / "e2e"))

from navd_fixture import Navd  # noqa: E402

NAVD_GTK = Path(os.environ.get("NAVD_GTK_BIN", PACKAGE / ".build" / "debug" / "navd-gtk"))
NAVCTL = Path(os.environ.get("NAVCTL_BIN", REPO / ".build" / "debug" / "navctl"))


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true",
                     help="write the golden screenshots from this run instead of comparing with them")


@pytest.fixture(scope="session")
def update_goldens(request) -> bool:
    return request.config.getoption("--update-goldens")


@pytest.fixture(scope="session")
def display():
    """Xvfb on a free display (it picks the number: -displayfd), 24-bit, no TCP."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1200x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    number = b""
    deadline = time.monotonic() + 10
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        chunk = os.read(read, 16)
        if not chunk:
            break
        number += chunk
    os.close(read)
    if not number.strip():
        xvfb.kill()
        pytest.fail("Xvfb did not report its display within 10 s")
    try:
        yield f":{number.decode().strip()}"
    finally:
        xvfb.kill()
        xvfb.wait(5)


@pytest.fixture(scope="session")
def gtk_env(display):
    """What makes every drawing the same on every machine: the display, GTK's cairo renderer,
    the Adwaita theme, scale 1, only the DejaVu fonts, no settings daemon or session bus."""
    runtime = tempfile.mkdtemp(prefix="navd-gtk-run-")
    env = dict(os.environ)
    env.update({
        "DISPLAY": display, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "GTK_THEME": "Adwaita",
        "GDK_SCALE": "1", "GDK_DPI_SCALE": "1", "FONTCONFIG_FILE": str(HERE / "fonts.conf"),
        "XDG_CACHE_HOME": str(Path(runtime) / "cache"), "XDG_RUNTIME_DIR": runtime,
        "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
        "DBUS_SESSION_BUS_ADDRESS": "disabled:",
    })
    env.pop("NAVD_SOCKET", None)
    return env


@pytest.fixture
def navd():
    if not NAVD_GTK.exists():
        pytest.fail(f"{NAVD_GTK} not built; run `swift build --package-path Examples/navd-gtk`")
    daemon = Navd(name="gtk").start()
    try:
        yield daemon
    finally:
        daemon.cleanup()


class NavdGtk:
    """One navd-gtk process; its --trace lines are read on a thread into a queue."""

    def __init__(self, env: dict, socket: str, args: list[str]):
        self.process = subprocess.Popen([str(NAVD_GTK), "--trace", "--socket", socket, *args], env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.env = env

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float = 15.0) -> re.Match:
        """The first trace line from now on matching `pattern`."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"navd-gtk printed no line matching {pattern!r} within {timeout} s; "
                                     f"saw {self.seen[-10:]}; stderr: {self.stderr()}")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            self.seen.append(line)
            match = re.fullmatch(pattern, line)
            if match:
                return match

    def wait_for_each(self, patterns: list[str], timeout: float = 15.0) -> list[re.Match]:
        """One line matching each of `patterns`, in any order."""
        found: dict[int, re.Match] = {}
        deadline = time.monotonic() + timeout
        while len(found) < len(patterns):
            remaining = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(0.01, remaining))
            except queue.Empty:
                missing = [p for i, p in enumerate(patterns) if i not in found]
                raise AssertionError(f"navd-gtk printed no line matching {missing} within {timeout} s; "
                                     f"saw {self.seen[-10:]}; stderr: {self.stderr()}")
            self.seen.append(line)
            for index, pattern in enumerate(patterns):
                match = re.fullmatch(pattern, line)
                if index not in found and match:
                    found[index] = match
                    break
        return [found[i] for i in range(len(patterns))]

    def drain(self, settle: float = 0.5) -> list[str]:
        """Every line printed within `settle` seconds of quiet."""
        lines = []
        while True:
            try:
                lines.append(self.lines.get(timeout=settle))
            except queue.Empty:
                self.seen += lines
                return lines

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(running)"
        return self.process.stderr.read()[-2000:]

    def window(self, number: int, scene: str) -> str:
        """The X window id of window `number` (its title is `navd-gtk N: SCENE`)."""
        out = subprocess.run(["xdotool", "search", "--sync", "--limit", "1", "--name", f"^navd-gtk {number}: {scene}$"],
                             env=self.env, capture_output=True, text=True, timeout=15)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()[0]

    def xdotool(self, *args: str):
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=15)

    def screenshot(self, window: str, path: Path):
        subprocess.run(["import", "-window", window, str(path)], env=self.env, check=True, timeout=15)

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(5)


@pytest.fixture
def navd_gtk(gtk_env, navd):
    """Starts navd-gtk processes against `navd`; kills them at the end of the test."""
    started: list[NavdGtk] = []

    def start(*args: str) -> NavdGtk:
        app = NavdGtk(gtk_env, navd.socket_path, list(args))
        started.append(app)
        return app

    yield start
    for app in started:
        app.stop()


def mutate(navd, scene: str, ops: list[dict]) -> int:
    with navd.connect() as connection:
        return int(connection.call("io.navd.Mutate", {"scene": scene, "ops": ops})["version"])


def differing_pixels(actual: Path, expected: Path, diff: Path) -> int:
    """ImageMagick's `compare -metric AE -fuzz 5%`: the pixels whose colour differs by more than
    5% (images of different sizes count as every pixel differing)."""
    result = subprocess.run(["compare", "-metric", "AE", "-fuzz", "5%", str(actual), str(expected), str(diff)],
                            capture_output=True, text=True, timeout=30)
    if result.returncode == 2:
        size = subprocess.run(["identify", "-format", "%w %h", str(actual)], capture_output=True, text=True)
        width, height = (int(n) for n in size.stdout.split())
        return width * height
    return int(float(result.stderr.split()[0]))
