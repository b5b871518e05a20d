#!/usr/bin/env bash
# Where navd's instructions go, counted by callgrind (repeatable on a busy
# machine, unlike timings): a release navd on a private socket under
# valgrind, a warm-up, then COUNT publishes from navbench with N layout
# subscribers (0: round trips with none). Prints instructions per mutation (all threads, and the event loop's and the redo log applier's own),
# the event loop's atomic reference-count operations per mutation (Swift's
# retains and releases: each is a locked instruction, ~10 ns here, however
# few instructions it counts), and the top functions, inclusive and self,
# demangled; keeps the callgrind file for `callgrind_annotate` or kcachegrind.
# With --redis, the same for redis-server (PUBLISH/SUBSCRIBE, navbench --resp):
# the peer's instructions per publish in the same scenario.
#
# Usage: bench/profile.sh [--subscribers N | --pipelined] [--count COUNT] [--keep DIR] [--skip-build] [--redis]
#   --subscribers N   layout subscribers (default 0: round trip with no subscribers)
#   --pipelined       pipelined Mutates (window 64, no subscribers) after 2,000 warm-up ones,
#                     so the op log is full and each version folds one into its floor
#   --count COUNT     publishes profiled (default 10000 round trips, 1000 with subscribers,
#                     10000 pipelined; pipelined counts are rounded down to a multiple of 4)
#   --keep DIR        where to leave callgrind.out (default: a new /tmp/navd-profile.* directory)
#   --skip-build      use .build/release as it is
#   --redis           profile redis-server instead of navd (it must be installed: bench/compare.sh does)
set -euo pipefail
cd "$(dirname "$0")/.."

subscribers=0
pipelined=0
count=""
keep=""
skip_build=0
redis=0
while [ $# -gt 0 ]; do
  case "$1" in
    --subscribers) subscribers="${2:?--subscribers needs a value}"; shift 2 ;;
    --pipelined) pipelined=1; shift ;;
    --count) count="${2:?--count needs a value}"; shift 2 ;;
    --keep) keep="${2:?--keep needs a value}"; shift 2 ;;
    --skip-build) skip_build=1; shift ;;
    --redis) redis=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "profile.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
if [ "$pipelined" -eq 1 ] && [ "$subscribers" -ne 0 ]; then
  echo "profile.sh: --pipelined runs without subscribers" >&2; exit 2
fi
command -v valgrind >/dev/null || { echo "profile.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
if [ "$redis" -eq 1 ]; then
  command -v redis-server >/dev/null || { echo "profile.sh: --redis needs redis-server (apt-get install redis-server)" >&2; exit 1; }
fi
if [ "$skip_build" -eq 0 ]; then
  swift build -c release --static-swift-stdlib --product navd >&2
  swift build -c release --static-swift-stdlib --product navbench >&2
fi

work="${keep:-$(mktemp -d /tmp/navd-profile.XXXXXX)}"
mkdir -p "$work"
rm -rf "$work/navd.sock" "$work/state" "$work"/callgrind.out*
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

# The server under valgrind; navd_pid is whichever it is.
if [ "$redis" -eq 1 ]; then
  server=(redis-server --port 0 --unixsocket "$work/navd.sock" --unixsocketperm 700 --save '' --appendonly no)
  resp=(--resp)
else
  server=(.build/release/navd --socket "$work/navd.sock" --state-dir "$work/state")
  resp=()
fi
valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes --callgrind-out-file="$work/callgrind.out" \
  "${server[@]}" >"$work/navd.log" 2>&1 &
navd_pid=$!
for _ in $(seq 300); do [ -S "$work/navd.sock" ] && break; sleep 0.1; done
[ -S "$work/navd.sock" ] || { echo "profile.sh: ${server[0]} did not start under valgrind" >&2; exit 1; }

bench=(.build/release/navbench --socket "$work/navd.sock" "${resp[@]}" --seconds 900)
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
busiest=""
busiest_count=0
for file in "${threads[@]}"; do
  instructions="$(totals "$file")"
  total=$((total + ${instructions:-0}))
  if [ "${instructions:-0}" -gt "$busiest_count" ]; then busiest="$file"; busiest_count="$instructions"; fi
  if grep -q 'NavServer0B4LoopC3run\|^fn=.* aeMain$' "$file"; then  # ServerLoop.run() (mangled), Redis's aeMain
    dump="$file"  # the event loop's thread: the listings below are its own
  elif grep -q 'applyUntilClosed' "$file"; then
    applier=$((applier + instructions))
  fi
done
# Redis's main thread, when its binary names no aeMain: the one that did the work.
[ -n "$dump" ] || [ "$redis" -eq 0 ] || dump="$busiest"
[ -n "$dump" ] || { echo "profile.sh: no event-loop thread in $latest" >&2; exit 1; }
loop="$(totals "$dump")"
# Calls into the runtime's reference counting from the loop's thread, per mutation: callgrind
# compresses names ("cfn=(id) name" once, then "cfn=(id)"), and each "calls=N" line after a
# cfn counts N calls to it. Only swift_retain and swift_release (and their _n forms, one
# locked instruction each): swift_bridgeObjectRetain/Release call them in turn, and an
# immortal object (an empty array) takes no lock, so this is an upper bound.
refcounts() {
  awk -v per="$count" '
    /^c?fn=\(/ { id = $1; sub(/^c?fn=/, "", id); if (NF > 1) name[id] = $2; if ($1 ~ /^cfn=/) callee = name[id]; next }
    /^calls=/ {
      split($1, c, "="); base = callee; sub(/'"'"'.*/, "", base)
      if (base ~ /^swift_retain(_n)?$/) retains += c[2]
      if (base ~ /^swift_release(_n)?$/) releases += c[2]
    }
    END { printf "%.0f retains, %.0f releases", retains / per, releases / per }' "$1"
}

demangle() { swift demangle --simplified | sed -E 's/ \[[^]]*\]$//; s|/[^ :]*Sources/||; s|  Sources/|  |; s|//<compiler-generated>:|(gen) |; s|\?\?\?:||' | cut -c1-150; }
mode="$subscribers subscribers"
[ "$pipelined" -eq 0 ] || mode="pipelined, window 64, no subscribers"
if [ "$redis" -eq 1 ]; then
  echo "$(redis-server --version | cut -d' ' -f1-3) (the peer; navbench --resp at $(git rev-parse --short HEAD)), $mode: $count publishes profiled"
  echo "instructions per publish (user space, all threads): $((total / count))"
  echo "  of which the event loop's thread (aeMain): $((loop / count))"
else
  echo "navd at $(git rev-parse --short HEAD), $mode: $count mutations profiled"
  echo "instructions per mutation (user space, all threads): $((total / count))"
  echo "  of which the event loop's thread: $((loop / count)); the redo log's applier (navd-redo): $((applier / count))"
  echo "atomic reference-count operations per mutation, the event loop's thread: $(refcounts "$dump")"
fi
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
