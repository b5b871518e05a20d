#!/usr/bin/env bash
# The cost of durability: a release navd with --durability normal and with
# --durability full, alternating, each round on a fresh private socket and
# state directory, measured by navbench (round trip and pipelined Mutates).
# Prints one markdown table of medians. Stops everything it started on exit.
# --sync-intervals "MS …" runs normal once per --sync-interval given (the redo
# log's fsync timer) instead of once at navd's default.
#
# Usage: bench/durability.sh [--rounds N] [--iterations N] [--sync-intervals "MS …"] [--skip-build]
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
iterations=3000
skip_build=0
intervals=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a value}"; shift 2 ;;
    --iterations) iterations="${2:?--iterations needs a value}"; shift 2 ;;
    --skip-build) skip_build=1; shift ;;
    --sync-intervals) intervals="${2:?--sync-intervals needs a value}"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

modes="normal full"
if [ -n "$intervals" ]; then
  modes=""
  for interval in $intervals; do modes="$modes normal_sync${interval}ms"; done
  modes="$modes full"
fi

for round in $(seq "$rounds"); do
  for mode in $modes; do
    dir="$work/$mode-$round"
    mkdir -p "$dir"
    case "$mode" in
      normal_sync*) flags=(--durability normal --sync-interval "$(echo "$mode" | tr -dc 0-9)") ;;
      *) flags=(--durability "$mode") ;;
    esac
    "$bin/navd" --socket "$dir/s" --state-dir "$dir/state" "${flags[@]}" --config /dev/null \
      >"$dir/navd.log" 2>&1 &
    pid=$!
    for _ in $(seq 200); do [ -S "$dir/s" ] && break; sleep 0.05; done
    [ -S "$dir/s" ] || { echo "durability.sh: navd did not start (see $dir/navd.log)" >&2; exit 1; }
    timeout 300 "$bin/navbench" --socket "$dir/s" --scenarios roundtrip,pipelined \
      --iterations "$iterations" --tsv "$work/$mode-$round.tsv" >/dev/null
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  done
done

python3 - "$work" $modes <<'PY'
import csv, glob, statistics, sys
modes = sys.argv[2:]
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
print("| measurement | unit | " + " | ".join(modes) + f" | {modes[-1]} / {modes[0]} |")
print("|---|---|" + "---|" * (len(modes) + 1))
for key in order:
    medians = [statistics.median(values[key][mode]) for mode in modes]
    cells = " | ".join(f"{value:,.1f}" for value in medians)
    print(f"| {key[0]} | {key[1]} | {cells} | {medians[-1] / medians[0]:.2f} |")
PY
