#!/usr/bin/env bash
# Where each server's CPU goes per publish: user space against the kernel, per
# thread. navd and Redis alternate, each started fresh for every round, under
# the same long closed-loop delivery run (navbench's `delivery` scenario), and
# the kernel's per-thread utime and stime (/proc/PID/task/*/stat) are read
# before the server stops. Those are sampled at the clock tick (10 ms), so the
# run must be long: the default 20,000 publishes give each cell ~400 ticks.
# Subscribing is counted too (a few ms of it).
#
# Usage: bench/cpu-split.sh [--subscribers N] [--publishes COUNT] [--rounds R]
#                           [--placement free|apart|together] [--skip-build]
#   --subscribers N      layout subscribers / SUBSCRIBE connections (default 64)
#   --publishes COUNT    measured publishes per run (default 20000; navbench adds 10 % warm-up)
#   --rounds R           rounds, each running both servers (default 3)
#   --placement P        as bench/compare.sh: free (default), apart (server on CPU 0, navbench
#                        on the others) or together (both on CPU 0); an idle CPU's wake-ups
#                        count as the woken thread's kernel time, so this moves the split
#   --skip-build         use the release binaries already in .build/release
set -euo pipefail
cd "$(dirname "$0")/.."

subscribers=64
publishes=20000
rounds=3
placement=free
skip_build=0
while [ $# -gt 0 ]; do
  case "$1" in
    --subscribers) subscribers="${2:?--subscribers needs a value}"; shift 2 ;;
    --publishes) publishes="${2:?--publishes needs a value}"; shift 2 ;;
    --rounds) rounds="${2:?--rounds needs a value}"; shift 2 ;;
    --placement) placement="${2:?--placement needs a value}"; shift 2 ;;
    --skip-build) skip_build=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cpu-split.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
. bench/placement.sh
place cpu-split.sh "$placement"
command -v redis-server >/dev/null \
  || { echo "cpu-split.sh: needs redis-server (bench/compare.sh installs it)" >&2; exit 1; }
if [ "$skip_build" -eq 0 ]; then
  swift build -c release --static-swift-stdlib --product navd >&2
  swift build -c release --static-swift-stdlib --product navbench >&2
fi

work="$(mktemp -d /tmp/navd-cpu-split.XXXXXX)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  [ -z "$server_pid" ] || wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
: >"$work/navd.conf"
ticks_per_second="$(getconf CLK_TCK)"
# delivery runs max(200, iterations / 10) rounds plus 10 % warm-up
iterations=$((publishes * 10))
sent=$((publishes + publishes / 10))

run() {  # navd|redis, round: one run; appends "server thread user_µs system_µs" lines to results
  rm -rf "$work/server"
  mkdir -p "$work/server"
  local socket="$work/server/sock" resp=()
  if [ "$1" = navd ]; then
    "${on_server[@]}" .build/release/navd --socket "$socket" --config "$work/navd.conf" --state-dir "$work/server/state" \
      >"$work/server/log" 2>&1 &
  else
    "${on_server[@]}" redis-server --port 0 --unixsocket "$socket" --unixsocketperm 700 --save '' --appendonly no \
      >"$work/server/log" 2>&1 &
    resp=(--resp)
  fi
  server_pid=$!
  for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.05; done
  [ -S "$socket" ] || { cat "$work/server/log" >&2; echo "cpu-split.sh: $1 did not start" >&2; exit 1; }
  timeout 600 "${on_client[@]}" .build/release/navbench --socket "$socket" "${resp[@]}" --scenarios delivery \
    --subscribers "$subscribers" --iterations "$iterations" --seconds 300 >"$work/server/bench" \
    || { cat "$work/server/bench" >&2; echo "cpu-split.sh: navbench failed against $1" >&2; exit 1; }
  # /proc/PID/task/TID/stat: the name is field 2 in parentheses; utime and stime are 14 and 15,
  # so 13 and 14 once the pid is cut off and the name's parentheses with it.
  for stat in /proc/"$server_pid"/task/*/stat; do
    sed -E 's/^[0-9]+ \(([^)]*)\) /\1 /' "$stat" \
      | awk -v s="$1" -v n="$sent" -v hz="$ticks_per_second" \
        '$13 + $14 > 0 { printf "%s %s %.1f %.1f\n", s, $1, $13 / hz / n * 1e6, $14 / hz / n * 1e6 }'
  done >>"$work/results"
  kill -TERM "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then order=(navd redis); else order=(redis navd); fi
  for server in "${order[@]}"; do run "$server" "$round"; done
done

echo "### CPU per publish, user space and kernel: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
echo
echo "\`bench/cpu-split.sh --subscribers $subscribers --publishes $publishes --rounds $rounds --placement $placement\`: closed-loop delivery to"
echo "$subscribers subscribers, $sent publishes a run, medians of $rounds runs; µs of CPU per publish from"
echo "each thread's utime and stime (sampled at the $ticks_per_second Hz tick). $(redis-server --version | cut -d' ' -f1-3)."
echo
echo "| server | thread | user µs | kernel µs | total µs |"
echo "|---|---|---|---|---|"
sort -k1,1 -k2,2 "$work/results" | awk '
  function median(list, count,    i, j, t, v) {
    split(list, v, " ")
    for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
    return count % 2 ? v[(count + 1) / 2] : (v[count / 2] + v[count / 2 + 1]) / 2
  }
  { key = $1 " | " $2; users[key] = users[key] " " $3; kernels[key] = kernels[key] " " $4; totals[key] = totals[key] " " ($3 + $4); runs[key]++ }
  END {
    for (key in runs) printf "| %s | %.1f | %.1f | %.1f |\n", key, median(users[key], runs[key]), median(kernels[key], runs[key]), median(totals[key], runs[key])
  }' | sort
