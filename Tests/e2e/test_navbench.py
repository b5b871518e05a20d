"""navbench end to end (issue 12): one harness, two protocols, every scenario
produces its numbers against a real navd and, when redis-server is installed,
against a real Redis; the engine and start-up modes run; `report` lines the
rounds up. Tiny counts: this checks the harness, not performance.
"""

from __future__ import annotations

import math
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from navd_fixture import REPO_ROOT, Navd, navd_binary

TIMEOUT = 120

# Tiny but complete: every scenario, every loop bounded.
SMALL = [
    "--iterations", "50", "--seconds", "10", "--subscribers", "1,4", "--fanout", "4",
    "--fanout-messages", "200", "--many", "40", "--many-rounds", "3",
    "--memory-mutations", "300", "--memory-subscribers", "4", "--memory-seconds", "30", "--large-frames", "4",
    "--ops", "title,popPush", "--ops-subscribers", "1,4", "--ops-fanout", "4",
]  # fmt: skip

# The op kinds' scenario alone, every kind, smaller still.
OPS = ["--scenarios", "ops", "--iterations", "20", "--seconds", "10", "--ops-subscribers", "2", "--ops-fanout", "2",
       "--fanout-messages", "60"]  # fmt: skip
OP_KINDS = ["title", "rightItemTitle", "toolbarItemTitle", "fourOps", "popPush", "setStack", "popTo", "barItems",
            "toolbarItems", "appearance", "hiddenBars", "tints"]  # fmt: skip

# The keys every server run must produce, whatever the server.
SERVER_KEYS = {
    "rss.idle", "many.subscribe", "many.rss", "many.first.p50", "many.last.p99",
    "roundtrip.p50", "roundtrip.p99", "roundtrip.cpu", "pipelined.rate", "pipelined.cpu", "delivery.4.cpu",
    "delivery.1.first.p50", "delivery.1.last.p50", "delivery.4.first.p99", "delivery.4.last.p99",
    "fanout.4.rate", "fanout.4.ack.p50", "fanout.4.ack.p99",
    "large.others.p50", "large.others.p99", "large.others.max", "large.rate", "large.cpu",
    "memory.published", "memory.before", "memory.tenthSettled", "memory.peak", "memory.afterSettled",
    "memory.growthSettled", "memory.driftSettled",
    "op.title.bytes", "op.title.roundtrip.p50", "op.title.roundtrip.cpu", "op.popPush.delivery.4.last.p50",
    "op.popPush.delivery.4.cpuPerUpdate", "op.popPush.fanout.4.rate",
}  # fmt: skip


def navbench_binary() -> Path:
    """$NAVBENCH_BIN, else the navbench next to the navd under test."""
    configured = os.environ.get("NAVBENCH_BIN")
    return Path(configured) if configured else navd_binary().parent / "navbench"


def run_navbench(*args: str) -> subprocess.CompletedProcess:
    binary = navbench_binary()
    if not binary.exists():
        pytest.fail(f"navbench not found at {binary}; run `swift build --product navbench` (or set NAVBENCH_BIN)")
    return subprocess.run(
        [str(binary), *args], capture_output=True, text=True, timeout=TIMEOUT, cwd=REPO_ROOT
    )


def read_results(path: Path) -> dict[str, float]:
    results = {}
    for line in path.read_text().splitlines():
        key, _label, _unit, value = line.split("\t")
        results[key] = float(value)
    return results


def check_server_results(results: dict[str, float], server: str) -> None:
    missing = SERVER_KEYS - results.keys()
    assert not missing, f"{server}: navbench produced no {sorted(missing)}"
    # Redis may need less than /proc can show
    cpu = {"roundtrip.cpu", "pipelined.cpu", "delivery.4.cpu", "op.title.roundtrip.cpu", "op.popPush.delivery.4.cpuPerUpdate",
           "large.cpu"}
    for key in SERVER_KEYS - {"memory.growthSettled", "memory.driftSettled", "many.rss"} - cpu:
        assert math.isfinite(results[key]) and results[key] > 0, f"{server}: {key} = {results[key]}"
    assert results["memory.published"] == 300, f"{server}: the memory run published {results['memory.published']}"
    assert results["delivery.4.last.p50"] >= results["delivery.4.first.p50"]


def test_every_scenario_against_navd(tmp_path):
    with Navd(name="navbench") as navd:
        done = run_navbench("--socket", navd.socket_path, *SMALL, "--tsv", str(tmp_path / "navd.tsv"))
        assert done.returncode == 0, done.stderr
        with navd.connect() as connection:
            scenes = connection.call("io.navd.ListScenes")["scenes"]
        assert [scene["name"] for scene in scenes] == ["main"], "navbench removes the scenes it made (DeleteScene)"
    assert "| round trip, no subscribers (PUBLISH / Mutate) p50 |" in done.stdout
    check_server_results(read_results(tmp_path / "navd.tsv"), "navd")


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed (scripts/setup --tests installs it)")
def test_every_scenario_against_redis(tmp_path):
    directory = Path(tempfile.mkdtemp(prefix="navbench-redis-"))
    socket_path = directory / "redis.sock"
    redis = subprocess.Popen(
        ["redis-server", "--port", "0", "--unixsocket", str(socket_path), "--save", "", "--appendonly", "no",
         "--dir", str(directory), "--logfile", str(directory / "redis.log")]
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while not socket_path.exists():
            assert redis.poll() is None, "redis-server exited at start"
            assert time.monotonic() < deadline, "redis-server did not create its socket within 10 s"
            time.sleep(0.05)
        done = run_navbench("--resp", "--socket", str(socket_path), *SMALL, "--tsv", str(tmp_path / "redis.tsv"))
        assert done.returncode == 0, done.stderr
    finally:
        redis.send_signal(signal.SIGTERM)
        try:
            redis.wait(timeout=10)
        except subprocess.TimeoutExpired:
            redis.kill()
            redis.wait(timeout=10)
        shutil.rmtree(directory, ignore_errors=True)
    check_server_results(read_results(tmp_path / "redis.tsv"), "redis")


def test_every_op_kind_against_navd_in_one_scene_each(tmp_path):
    """issue 25: every op kind's rows, each kind on one scene (navd's 64 scenes per uid hold them all)."""
    with Navd(name="navbench-ops") as navd:
        done = run_navbench("--socket", navd.socket_path, *OPS, "--tsv", str(tmp_path / "navd.tsv"))
        assert done.returncode == 0, done.stderr
        with navd.connect() as client:
            scenes = client.call("io.navd.ListScenes", {})["scenes"]
    results = read_results(tmp_path / "navd.tsv")
    for kind in OP_KINDS:
        for key in ["roundtrip.p50", "delivery.2.last.p50", "delivery.2.cpuPerUpdate", "fanout.2.rate"]:
            assert math.isfinite(results[f"op.{kind}.{key}"]) and results[f"op.{kind}.{key}"] > 0, f"{kind}: {key}"
    # Each kind's one scene (bench-op-KIND) held the quota together during the run; navbench
    # deletes them after it (DeleteScene), so nothing is left behind.
    assert [s["name"] for s in scenes] == ["main"], scenes


def test_engine_mode_reports_both_scenes():
    done = run_navbench("--engine", "--mutations", "300", "--seconds", "10")
    assert done.returncode == 0, done.stderr
    for label in ["one screen, title only", "3 screens, 5 bar items, 32 toolbar items"]:
        assert f"| engine: title changes per CPU second, {label} |" in done.stdout
        assert f"| engine: title changes per CPU second through SceneEngine + 1 subscriber, {label} |" in done.stdout
    for label in ["pop, then push a new item", "toolbar hidden and shown", "scene and default item tints"]:
        assert f"| engine: mutations per CPU second, {label}, three screens at 768 |" in done.stdout


def test_startup_mode_times_a_served_socket(tmp_path):
    done = run_navbench("--startup", str(navd_binary()), "--runs", "2", "--tsv", str(tmp_path / "s.tsv"))
    assert done.returncode == 0, done.stderr
    results = read_results(tmp_path / "s.tsv")
    assert 0 < results["startup.empty.p50"] <= results["startup.empty.max"] < 10_000
    assert results["startup.empty.rss"] > 0


def test_report_gives_medians_and_ratios(tmp_path):
    for name, values in {"n1": 70, "n2": 90, "n3": 60, "r1": 30, "r2": 20, "r3": 25}.items():
        (tmp_path / f"{name}.tsv").write_text(f"roundtrip.p50\tround trip p50\tµs\t{values}\n")
    done = run_navbench(
        "report", "--navd", *(str(tmp_path / f"n{i}.tsv") for i in (1, 2, 3)),
        "--redis", *(str(tmp_path / f"r{i}.tsv") for i in (1, 2, 3)),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "| round trip p50 | µs | 25.0 | 70.0 | 2.80 |" in done.stdout


def test_bad_option_is_a_usage_error():
    done = run_navbench("--subscribers", "1,zero")
    assert done.returncode == 2
    assert "--subscribers" in done.stderr and "1,zero" in done.stderr
    done = run_navbench("--ops", "title,rename")
    assert done.returncode == 2
    assert 'no op kind "rename"' in done.stderr and "popPush" in done.stderr
