#!/usr/bin/env bash
# Where navd's instructions go, counted by callgrind (repeatable on a busy
# machine, unlike timings): a release navd on a private socket under
# valgrind, a warm-up, then COUNT publishes from navbench with N layout
# subscribers (0: round trips with none). Prints instructions per mutation (all threads, and the event loop's and the redo log applier's own)
# and the top functions, inclusive and self, demangled; keeps the callgrind
# file for `callgrind_annotate` or kcachegrind.
#
# Usage: bench/profile.sh [--subscribers N | --pipelined] [--count COUNT] [--keep DIR] [--skip-build]
#   --subscribers N   layout subscribers (default 0: round trip with no subscribers)
#   --pipelined       pipelined Mutates (window 64, no subscribers) after 2,000 warm-up ones,
#                     so the op log is full and each version folds one into its floor
#   --count COUNT     publishes profiled (default 10000 round trips, 1000 with subscribers,
#                     10000 pipelined; pipelined counts are rounded down to a multiple of 4)
#   --keep DIR        where to leave callgrind.out (default: a new /tmp/navd-profile.* directory)
#   --skip-build      use .build/release as it is
set -euo pipefail
cd "$(dirname "$0")/.."

subscribers=0
pipelined=0
count=""
keep=""
skip_build=0
while [ $# -gt 0 ]; do
  case "$1" in
    --subscribers) subscribers="${2:?--subscribers needs a value}"; shift 2 ;;
    --pipelined) pipelined=1; shift ;;
    --count) count="${2:?--count needs a value}"; shift 2 ;;
    --keep) keep="${2:?--keep needs a value}"; shift 2 ;;
    --skip-build) skip_build=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "profile.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
if [ "$pipelined" -eq 1 ] && [ "$subscribers" -ne 0 ]; then
  echo "profile.sh: --pipelined runs without subscribers" >&2; exit 2
fi
command -v valgrind >/dev/null || { echo "profile.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
if [ "$skip_build" -eq 0 ]; then
  swift build -c release --static-swift-stdlib --product navd >&2
  swift build -c release --static-swift-stdlib --product navbench >&2
fi

work="${keep:-$(mktemp -d /tmp/navd-profile.XXXXXX)}"
mkdir -p "$work"
rm -rf "$work/navd.sock" "$work/state"
navd_pid=""
cleanup() {
  if [ -n "$navd_pid" ] && kill -0 "$navd_pid" 2>/dev/null; then
    kill -TERM "$navd_pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$navd_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$navd_pid" 2>/dev/null || true
  fi
  [ -z "$navd_pid" ] || wait "$navd_pid" 2>/dev/null || true
}
trap cleanup EXIT

valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes --callgrind-out-file="$work/callgrind.out" \
  .build/release/navd --socket "$work/navd.sock" --state-dir "$work/state" >"$work/navd.log" 2>&1 &
navd_pid=$!
for _ in $(seq 300); do [ -S "$work/navd.sock" ] && break; sleep 0.1; done
[ -S "$work/navd.sock" ] || { echo "profile.sh: navd did not start under valgrind" >&2; exit 1; }

bench=(.build/release/navbench --socket "$work/navd.sock" --seconds 900)
if [ "$pipelined" -eq 1 ]; then
  count="${count:-10000}"
  # navbench's pipelined scenario sends 4 × iterations Mutates
  count=$((count / 4 * 4))
  [ "$count" -ge 4 ] || { echo "profile.sh: --count must be at least 4 with --pipelined" >&2; exit 2; }
  measure=(--scenarios pipelined --iterations "$((count / 4))")
  warm=(--scenarios pipelined --iterations 500)
elif [ "$subscribers" -eq 0 ]; then
  count="${count:-10000}"
  # roundtrip takes iterations plus 10% warm-up
  measure=(--scenarios roundtrip --iterations "$((count * 10 / 11))")
  warm=(--scenarios roundtrip --iterations 500)
else
  count="${count:-1000}"
  [ "$count" -ge 220 ] || count=220  # delivery runs at least 200 rounds + 10% warm-up
  # delivery runs max(200, iterations / 10) rounds plus 10% warm-up
  measure=(--scenarios delivery --subscribers "$subscribers" --iterations "$((count * 100 / 11))")
  warm=(--scenarios delivery --subscribers "$subscribers" --iterations 2000)
fi
callgrind_control -i on "$navd_pid" >/dev/null
timeout 1800 "${bench[@]}" "${warm[@]}" >/dev/null
callgrind_control -z "$navd_pid" >/dev/null
timeout 3600 "${bench[@]}" "${measure[@]}" >"$work/navbench.txt"
callgrind_control -d "$navd_pid" >/dev/null
# One file per thread (--separate-threads): callgrind.out.<dump>-<thread>.
latest="$(ls -t "$work"/callgrind.out.* | head -1)"
threads=("${latest%-*}"-*)
totals() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print ($1 ~ /^[0-9]+$/) ? $1 : 0 }'; }
total=0
dump=""
applier=0
for file in "${threads[@]}"; do
  instructions="$(totals "$file")"
  total=$((total + ${instructions:-0}))
  if grep -q 'NavServer0B4LoopC3run' "$file"; then  # ServerLoop.run(), mangled
    dump="$file"  # the event loop's thread: the listings below are its own
  elif grep -q 'applyUntilClosed' "$file"; then
    applier=$((applier + instructions))
  fi
done
[ -n "$dump" ] || { echo "profile.sh: no event-loop thread in $latest" >&2; exit 1; }
loop="$(totals "$dump")"

demangle() { swift demangle --simplified | sed -E 's/ \[[^]]*\]$//; s|/[^ :]*Sources/||; s|  Sources/|  |; s|//<compiler-generated>:|(gen) |; s|\?\?\?:||' | cut -c1-150; }
mode="$subscribers subscribers"
[ "$pipelined" -eq 0 ] || mode="pipelined, window 64, no subscribers"
echo "navd at $(git rev-parse --short HEAD), $mode: $count mutations profiled"
echo "instructions per mutation (user space, all threads): $((total / count))"
echo "  of which the event loop's thread: $((loop / count)); the redo log's applier (navd-redo): $((applier / count))"
echo "profile (the event loop's thread): $dump"
echo
# callgrind_annotate 3.19 warns "Use of uninitialized value" on some dumps (a Perl
# warning about its own histogram, not about the counts): kept off the report.
annotate() { callgrind_annotate "$@" 2> >(grep -v '^Use of uninitialized value' >&2); }
echo "== inclusive (share of the event loop thread's instructions)"
annotate --inclusive=yes "$dump" | sed -n '/file:function/,$p' | sed -n '3,42p' | demangle
echo
echo "== self"
annotate "$dump" | sed -n '/file:function/,$p' | sed -n '3,27p' | demangle
