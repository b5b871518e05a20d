#!/usr/bin/env bash
# The cost of durability: a release navd with --durability normal and with
# --durability full, alternating, each round on a fresh private socket and
# state directory, measured by navbench (round trip and pipelined Mutates).
# Prints one markdown table of medians. Stops everything it started on exit.
#
# Usage: bench/durability.sh [--rounds N] [--iterations N] [--skip-build]
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
iterations=3000
skip_build=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a value}"; shift 2 ;;
    --iterations) iterations="${2:?--iterations needs a value}"; shift 2 ;;
    --skip-build) skip_build=1; shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "durability.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done

if [ "$skip_build" = 0 ]; then
  swift build -c release --static-swift-stdlib --product navd >&2
  swift build -c release --static-swift-stdlib --product navbench >&2
fi
bin=.build/release
work=$(mktemp -d /tmp/navd-durability.XXXXXX)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

for round in $(seq "$rounds"); do
  for mode in normal full; do
    dir="$work/$mode-$round"
    mkdir -p "$dir"
    "$bin/navd" --socket "$dir/s" --state-dir "$dir/state" --durability "$mode" --config /dev/null \
      >"$dir/navd.log" 2>&1 &
    pid=$!
    for _ in $(seq 200); do [ -S "$dir/s" ] && break; sleep 0.05; done
    [ -S "$dir/s" ] || { echo "durability.sh: navd did not start (see $dir/navd.log)" >&2; exit 1; }
    timeout 300 "$bin/navbench" --socket "$dir/s" --scenarios roundtrip,pipelined \
      --iterations "$iterations" --tsv "$work/$mode-$round.tsv" >/dev/null
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  done
done

python3 - "$work" <<'PY'
import csv, glob, statistics, sys
values = {}
order = []
for path in sorted(glob.glob(sys.argv[1] + "/*.tsv")):
    mode = path.rsplit("/", 1)[1].split("-")[0]
    for row in csv.reader(open(path), delimiter="\t"):
        if len(row) < 4:
            continue
        try:
            value = float(row[3])
        except ValueError:
            continue
        key = (row[1], row[2])
        if key not in values:
            order.append(key)
        values.setdefault(key, {}).setdefault(mode, []).append(value)
print("| measurement | unit | normal | full | full / normal |")
print("|---|---|---|---|---|")
for key in order:
    normal = statistics.median(values[key]["normal"])
    full = statistics.median(values[key]["full"])
    print(f"| {key[0]} | {key[1]} | {normal:,.1f} | {full:,.1f} | {full / normal:.2f} |")
PY
