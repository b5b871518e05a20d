#!/usr/bin/env python3
"""navd's instruction budget (issue 25): a release navd under callgrind runs
fixed workloads (`navbench --instructions`: for each op kind a round trip, a
pipelined burst of 64 and a closed-loop fan-out to 64 layout subscribers), and
the event loop thread's instructions per mutation are checked against
bench/instruction-budget.json. Fails when a workload costs more than its budget
by over the file's tolerance (10 %), and says which workload, its budget and
what was measured. Counted instructions do not move with the machine's load,
so this is a regression check a busy CI machine can run (scripts/test does).

Updating the budget: a commit that makes a workload cheaper lowers its budget
in the same commit: run `bench/instruction-budget.py --update` and commit the
JSON file with the change (the script says when a workload is more than the
tolerance under its budget). A commit that makes one dearer on purpose raises
it the same way and says why in its message.

What is counted: the event loop thread alone (callgrind --separate-threads),
the one a client waits for; the redo log's applier batches by time, so its
count moves from run to run and is printed but not checked. navd is the
release build scripts/install and Tests/system make (`swift build -c release
--static-swift-stdlib`, the same link flags, so scripts/test builds it once);
the client, navbench, is the debug build (what it costs is not counted).

Usage: bench/instruction-budget.py [--update] [--ops LIST] [--runs N] [--skip-build] [--navd PATH] [--keep DIR]
  --update       write the measured counts into the budget file (the commit's own)
  --ops LIST     only these op kinds (comma-separated; default all), not with --update
  --runs N       measure N times and report the spread (checks the counts' determinism)
  --skip-build   use the navd and navbench already built
  --navd PATH    measure this navd (built elsewhere) instead; implies --skip-build
  --keep DIR     leave navd's log and the callgrind files in DIR
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUDGET = REPO / "bench" / "instruction-budget.json"
LINK_FLAGS = ["-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now"]
RELEASE = ["swift", "build", "-c", "release", "--static-swift-stdlib", *LINK_FLAGS]
# ServerLoop.run() (mangled): the event loop's thread is the one whose dump names it.
LOOP_SYMBOL = "NavServer0B4LoopC3run"
# ServerLoop.tickAll(now:) (mangled): the loop's timer tick.
TICK_SYMBOL = "NavServer0B4LoopC7tickAll"
TIMEOUT = 900


def say(message: str) -> None:
    print(f"instruction-budget: {message}", file=sys.stderr, flush=True)


def build() -> tuple[Path, Path]:
    subprocess.run([*RELEASE, "--product", "navd"], cwd=REPO, check=True, stdout=sys.stderr)
    subprocess.run(["swift", "build", "--product", "navbench"], cwd=REPO, check=True, stdout=sys.stderr)
    return binaries()


def binaries() -> tuple[Path, Path]:
    release = subprocess.run([*RELEASE, "--show-bin-path"], cwd=REPO, check=True, capture_output=True, text=True)
    debug = subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO, check=True, capture_output=True, text=True)
    navd = Path(release.stdout.strip()) / "navd"
    navbench = Path(debug.stdout.strip()) / "navbench"
    for binary in (navd, navbench):
        if not binary.exists():
            sys.exit(f"instruction-budget: {binary} is not built (run without --skip-build)")
    return navd, navbench


def totals(path: Path) -> int:
    """The instructions a callgrind file counts (its `totals:` or `summary:` line)."""
    with path.open() as f:
        for line in f:
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1])
    return 0


def clocked(path: Path) -> int:
    """What the loop's timer tick cost in a dump (inclusive): heap trimming and the connections'
    timeouts run by the clock, as often as valgrind's slowdown lets them, so they are not counted."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(path)],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    for line in out.splitlines():
        found = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+\S*:(\S+)", line)
        if found and TICK_SYMBOL in found.group(2):
            return int(found.group(1).replace(",", ""))
    return 0


def measure(navd: Path, navbench: Path, ops: str | None, work: Path) -> dict[str, dict[str, int]]:
    """One run: {workload: {"loop": per mutation, "other": the other threads' per mutation}}."""
    shutil.rmtree(work / "run", ignore_errors=True)
    run = work / "run"
    run.mkdir(parents=True)
    (run / "navd.conf").write_text("")
    socket = run / "navd.sock"
    log = (run / "navd.log").open("w")
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes",
         f"--callgrind-out-file={run}/callgrind.out",
         str(navd), "--socket", str(socket), "--state-dir", str(run / "state"), "--config", str(run / "navd.conf")],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        # Swift seeds its hashing at random per process, and a dictionary's probes and order
        # move its instruction count by a few per cent from run to run; a fixed seed does not.
        env={**os.environ, "SWIFT_DETERMINISTIC_HASHING": "1"})  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not socket.exists():
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"instruction-budget: navd did not start under valgrind (see {run}/navd.log)")
            time.sleep(0.1)
        control = f"callgrind_control {server.pid} >/dev/null"
        subprocess.run(["callgrind_control", "-i", "on", str(server.pid)], check=True, capture_output=True)
        command = [str(navbench), "--socket", str(socket), "--instructions",
                   "--zero-command", control.replace("callgrind_control", "callgrind_control -z", 1),
                   "--dump-command", control.replace("callgrind_control", "callgrind_control --dump={}", 1)]  # fmt: skip
        if ops:
            command += ["--ops", ops]
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
        if done.returncode != 0:
            sys.exit(f"instruction-budget: navbench failed:\n{done.stdout}{done.stderr}")
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        log.close()
    # One file per dump and thread, callgrind.out.N-TT; the dump's description names the workload.
    dumps: dict[str, list[Path]] = {}
    # In the order of the dumps (N), which is navbench's order of the workloads.
    for path in sorted(run.glob("callgrind.out.*-*"), key=lambda p: [int(n) for n in re.findall(r"[0-9]+", p.name)]):
        with path.open() as f:
            head = "".join(next(f, "") for _ in range(40))
        found = re.search(r"^desc: Trigger: .*?([A-Za-z]+\.[a-z0-9]+\.[0-9]+)\s*$", head, re.M)
        if found:
            dumps.setdefault(found.group(1), []).append(path)
    results: dict[str, dict[str, int]] = {}
    for name, paths in dumps.items():
        kind, workload, mutations = name.split(".")
        loop = [p for p in paths if LOOP_SYMBOL in p.read_text()]
        if len(loop) != 1:
            sys.exit(f"instruction-budget: {name}: {len(loop)} event-loop threads in {run}")
        other = sum(totals(p) for p in paths if p not in loop)
        results[f"{kind}.{workload}"] = {
            "loop": round((totals(loop[0]) - clocked(loop[0])) / int(mutations)), "other": round(other / int(mutations))}
    if not results:
        sys.exit(f"instruction-budget: no workload's dump found in {run}")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(add_help=True, description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true")
    parser.add_argument("--ops")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--keep")
    parser.add_argument("--navd")
    args = parser.parse_args()
    if args.update and args.ops:
        parser.error("--update measures every op kind")
    if not shutil.which("valgrind") or not shutil.which("callgrind_control"):
        sys.exit("instruction-budget: needs valgrind (apt-get install valgrind; scripts/setup --tests does)")
    if args.navd:
        navd, navbench = Path(args.navd).resolve(), REPO / ".build" / "debug" / "navbench"
    else:
        navd, navbench = binaries() if args.skip_build else build()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="navd-budget."))
    work.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        runs = [measure(navd, navbench, args.ops, work) for _ in range(args.runs)]
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    measured = {name: max(run[name]["loop"] for run in runs) for name in runs[0]}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    say(f"{len(measured)} workloads, {args.runs} run(s) in {time.monotonic() - started:.0f} s "
        f"at {commit.stdout.strip() or 'unknown'}")  # fmt: skip
    budget = json.loads(BUDGET.read_text()) if BUDGET.exists() else {"tolerance": 0.10, "budgets": {}}
    tolerance = budget["tolerance"]
    budgets: dict[str, int] = budget["budgets"]
    print("| workload | budget | measured | measured / budget | other threads (not checked) |"
          + ("" if args.runs == 1 else " spread of the runs |"))  # fmt: skip
    print("|---|---|---|---|---|" + ("" if args.runs == 1 else "---|"))
    over, under, missing = [], [], []
    for name, count in measured.items():
        limit = budgets.get(name)
        ratio = f"{count / limit:.3f}" if limit else "–"
        row = f"| {name} | {limit if limit else '–'} | {count} | {ratio} | {runs[0][name]['other']} |"
        if args.runs > 1:
            values = [run[name]["loop"] for run in runs]
            row += f" {(max(values) - min(values)) / min(values) * 100:.2f} % |"
        print(row)
        if limit is None:
            missing.append(name)
        elif count > limit * (1 + tolerance):
            over.append((name, limit, count))
        elif count < limit * (1 - tolerance):
            under.append((name, limit, count))
    if args.update:
        budget["budgets"] = dict(sorted(measured.items()))
        budget["commit"] = commit.stdout.strip()
        BUDGET.write_text(json.dumps(budget, indent=2) + "\n")
        say(f"wrote {BUDGET.relative_to(REPO)}: commit it with the change that earned it")
        return 0
    for name, limit, count in under:
        say(f"{name} is {(1 - count / limit) * 100:.0f} % under its budget ({count} against {limit}): "
            "lower it in this commit (bench/instruction-budget.py --update)")  # fmt: skip
    for name in missing:
        say(f"{name} has no budget: add it (bench/instruction-budget.py --update)")
    for name, limit, count in over:
        say(f"REGRESSION {name}: budget {limit} instructions per mutation, measured {count} "
            f"(+{(count / limit - 1) * 100:.1f} %, over the {tolerance * 100:.0f} % allowed)")  # fmt: skip
    return 1 if over or missing else 0


if __name__ == "__main__":
    sys.exit(main())
