#!/usr/bin/env bash
# navd against Redis pub/sub, side by side, on this machine.
#
# Installs redis-server when missing, builds a release navd and navbench,
# and runs the same client harness (navbench) against both servers, each on
# a private Unix socket in a temporary directory, alternating which goes
# first, for --rounds rounds. Every server is started fresh for each run and
# stopped by its own pid; everything started is stopped and removed on any
# exit. Prints one markdown table of medians with navd/Redis ratios, with the
# machine, date and commit (ready for BENCHMARKS.md).
#
# Where the processes run is the scheduler's choice by default. On a VM
# whose idle CPUs halt (no guest halt polling), that choice decides the
# latency rows: a client and server on one CPU hand over in a context
# switch, on two CPUs each message also pays an idle CPU's wake-up (see
# BENCHMARKS.md). --placement pins both servers and navbench (taskset) to
# measure each case on purpose: `apart` puts the server on CPU 0 and the
# client on the others, `together` both on CPU 0.
#
# The op kinds of issue 25 (navbench's `ops` scenario: a title, bar button
# and toolbar items, four ops at once, pop and push, setStack, popTo, appearance,
# hidden bars, tints) run beside Redis in the same runs, each publishing that
# kind's Mutate to navd and the same bytes to Redis, with a summary table of
# their ratios; `navbench --engine` reports each kind in process too.
#
# Usage: bench/compare.sh [--rounds N] [--quick] [--memory-mutations N] [--memory-rounds N]
#                         [--state-versions N] [--placement free|apart|together]
#                         [--out FILE] [--skip-build] [-- NAVBENCH-OPTIONS...]
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  cat <<'EOF'
Options:
  --rounds N             rounds, each running both servers (default 3, at least 3 for the table)
  --quick                smaller counts (a check that everything runs, ~3 minutes; not for BENCHMARKS.md)
  --memory-mutations N   publishes in the memory run (default 1000000)
  --memory-rounds N      rounds that include the memory run (default 1)
  --state-versions N     versions stored before timing navd's start-up with state (default 1000000;
                         only when navd has --state-dir; round 1 only)
  --placement P          free (default: the scheduler places them), apart (server on CPU 0,
                         client on the other CPUs) or together (both on CPU 0)
  --out FILE             also write the report to FILE
  --skip-build           use the release binaries already in .build/release
  -- NAVBENCH-OPTIONS    passed to every navbench run (see navbench --help)
EOF
}

invocation="bench/compare.sh${*:+ $*}"
rounds=3
quick=0
memory_mutations=1000000
memory_rounds=1
state_versions=1000000
placement=free
out=""
skip_build=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a value}"; shift 2 ;;
    --quick) quick=1; shift ;;
    --memory-mutations) memory_mutations="${2:?--memory-mutations needs a value}"; shift 2 ;;
    --memory-rounds) memory_rounds="${2:?--memory-rounds needs a value}"; shift 2 ;;
    --state-versions) state_versions="${2:?--state-versions needs a value}"; shift 2 ;;
    --placement) placement="${2:?--placement needs a value}"; shift 2 ;;
    --out) out="${2:?--out needs a value}"; shift 2 ;;
    --skip-build) skip_build=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "compare.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
case "$rounds" in ''|*[!0-9]*) echo "compare.sh: --rounds needs a whole number" >&2; exit 2 ;; esac
[ "$rounds" -ge 1 ] || { echo "compare.sh: --rounds must be at least 1" >&2; exit 2; }
. bench/placement.sh
place compare.sh "$placement"

say() { echo "compare.sh: $*" >&2; }

# --- everything this script starts is recorded here and stopped on exit ---
work="$(mktemp -d /tmp/navd-compare.XXXXXX)"
server_pid=""
bench_pid=""
cleanup() {
  local status=$?
  # navbench runs under `timeout`, which leads its own process group: stopping
  # the group also stops any navd that `navbench --startup` started.
  if [ -n "$bench_pid" ] && kill -0 "$bench_pid" 2>/dev/null; then
    kill -TERM -- "-$bench_pid" 2>/dev/null || true
    wait "$bench_pid" 2>/dev/null || true
  fi
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- what is needed ---
if ! command -v redis-server >/dev/null; then
  say "installing redis-server (apt-get)"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server >"$work/apt.log" 2>&1 \
    || { "${sudo_cmd[@]}" apt-get update >>"$work/apt.log" 2>&1 \
      && "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server >>"$work/apt.log" 2>&1; } \
    || { cat "$work/apt.log" >&2; say "cannot install redis-server"; exit 1; }
fi
if [ "$skip_build" -eq 0 ]; then
  say "building release navd and navbench"
  swift build -c release --static-swift-stdlib --product navd >&2
  swift build -c release --static-swift-stdlib --product navbench >&2
fi
navd=.build/release/navd
navbench=.build/release/navbench
[ -x "$navd" ] && [ -x "$navbench" ] || { say "no release build in .build/release"; exit 1; }

# 10,000 subscribers need 10,000 descriptors in the client and in each server.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# Options this navd may or may not have yet: use each only when its --help names it.
navd_help="$("$navd" --help)"
navd_has() { grep -q -- "$1" <<<"$navd_help"; }
navd_has_state_dir=0
navd_has --state-dir && navd_has_state_dir=1
navd_options=(--max-connections 10100)
# A private, empty configuration: /etc/navd/navd.conf must not change what is measured.
startup_options=()
if navd_has --config; then
  : >"$work/navd.conf"
  navd_options+=(--config "$work/navd.conf")
  startup_options=(--navd-arg --config --navd-arg "$work/navd.conf")
fi
navd_has --max-subscribers-per-scene && navd_options+=(--max-subscribers-per-scene 10100)

if [ "$quick" -eq 1 ]; then
  sizes=(--iterations 1000 --seconds 5 --fanout-messages 2000 --many 1000 --many-rounds 5)
  memory_mutations=20000
  state_versions=20000
  startup_runs=5
  engine_sizes=(--mutations 20000 --seconds 2)
else
  sizes=(--iterations 5000 --seconds 20 --fanout-messages 20000 --many 10000 --many-rounds 20)
  startup_runs=20
  engine_sizes=(--mutations 500000 --seconds 5)
fi
load_scenarios=idle,many,roundtrip,pipelined,delivery,fanout,ops

# --- servers: started fresh for every run, stopped by their own pid ---
wait_for_socket() {  # path, what
  for _ in $(seq 200); do
    [ -S "$1" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || { say "$2 exited at start"; return 1; }
    sleep 0.05
  done
  say "$2 did not create $1 within 10 s"
  return 1
}

start_server() {  # navd|redis, round
  rm -rf "$work/server"
  mkdir -p "$work/server"
  if [ "$1" = navd ]; then
    local args=(--socket "$work/server/navd.sock" "${navd_options[@]}")
    [ "$navd_has_state_dir" -eq 1 ] && args+=(--state-dir "$work/server/state")
    "${on_server[@]}" "$navd" "${args[@]}" >"$work/server/navd.log" 2>&1 &
    server_pid=$!
    socket="$work/server/navd.sock"
  else
    "${on_server[@]}" redis-server --port 0 --unixsocket "$work/server/redis.sock" --unixsocketperm 700 \
      --save '' --appendonly no --dir "$work/server" --logfile "$work/server/redis.log" \
      --maxclients 10100 --client-output-buffer-limit 'pubsub 0 0 0' &
    server_pid=$!
    socket="$work/server/redis.sock"
  fi
  wait_for_socket "$socket" "$1"
}

stop_server() {
  kill -TERM "$server_pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

bounded() {  # seconds, log, command...: runs it in the background so cleanup can stop it
  local seconds=$1 log=$2 status=0
  shift 2
  rm -f "$work/part.tsv"
  timeout "$seconds" "${on_client[@]}" "$@" >>"$log" 2>&1 &
  bench_pid=$!
  wait "$bench_pid" || status=$?
  bench_pid=""
  if [ "$status" -ne 0 ]; then
    say "failed ($status): $* — the end of $log:"
    tail -20 "$log" >&2
    return 1
  fi
}

run_navbench() {  # server, results file, navbench arguments...
  local server=$1 results=$2
  shift 2
  local protocol=()
  [ "$server" = redis ] && protocol=(--resp)
  bounded 1800 "$work/$server.log" "$navbench" --socket "$socket" "${protocol[@]}" --tsv "$work/part.tsv" "$@"
  cat "$work/part.tsv" >>"$results"
}

started_at="$(date -u '+%Y-%m-%d %H:%M UTC')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then order=(navd redis); else order=(redis navd); fi
  for server in "${order[@]}"; do
    say "round $round/$rounds: $server"
    results="$work/$server-$round.tsv"
    : >"$results"
    start_server "$server" "$round"
    run_navbench "$server" "$results" --scenarios "$load_scenarios" "${sizes[@]}" "${extra[@]}"
    stop_server
    if [ "$round" -le "$memory_rounds" ]; then
      start_server "$server" "$round"
      run_navbench "$server" "$results" --scenarios memory --memory-mutations "$memory_mutations" \
        --memory-seconds 600 "${extra[@]}"
      stop_server
    fi
    if [ "$server" = navd ]; then
      bounded 600 "$work/navd.log" "$navbench" --engine "${engine_sizes[@]}" --tsv "$work/part.tsv"
      cp "$work/part.tsv" "$work/engine-$round.tsv"
      bounded 600 "$work/navd.log" "$navbench" --startup "$navd" "${startup_options[@]}" --runs "$startup_runs" --tsv "$work/part.tsv"
      cat "$work/part.tsv" >>"$results"
      if [ "$navd_has_state_dir" -eq 1 ] && [ "$round" -eq 1 ]; then
        bounded 1200 "$work/navd.log" "$navbench" --startup "$navd" "${startup_options[@]}" --runs "$startup_runs" --state-scenes 100 \
          --state-versions "$state_versions" --memory-seconds 900 --tsv "$work/part.tsv"
        grep '^startup\.state' "$work/part.tsv" >>"$results" || true
      fi
    fi
  done
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

# --- the report ---
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
git diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
memory="$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
navd_files=()
redis_files=()
engine_files=()
for round in $(seq "$rounds"); do
  navd_files+=("$work/navd-$round.tsv")
  redis_files+=("$work/redis-$round.tsv")
  engine_files+=("$work/engine-$round.tsv")
done
{
  echo "### navd vs Redis pub/sub: $started_at, commit $commit"
  echo
  echo "\`$invocation\`: $rounds rounds, the servers alternating, each started fresh"
  echo "for every run; medians of the rounds (the memory run: the first $memory_rounds;"
  echo "start-up with stored state: the first). Machine: $(nproc) × $cpu, $memory,"
  echo "$(uname -sr); load average before/after: $load_before / $load_after."
  echo "$(swift --version 2>/dev/null | head -1); $(redis-server --version | cut -d' ' -f1-3),"
  echo "\`--save '' --appendonly no\`, Unix socket."
  case "$placement" in
    free) echo "Placement: the scheduler's (no pinning)." ;;
    apart) echo "Placement: apart, the server on CPU 0 and navbench on CPUs 1–$(($(nproc) - 1)) (taskset)." ;;
    together) echo "Placement: together, the server and navbench on CPU 0 (taskset)." ;;
  esac
  if [ "$navd_has_state_dir" -eq 1 ]; then
    echo "navd with a \`--state-dir\` (its default durability)."
  else
    echo "navd without a state directory (this build has no \`--state-dir\`)."
  fi
  [ "$quick" -eq 0 ] || echo "**--quick: reduced counts, not for comparison.**"
  echo
  echo "Latencies in µs (lower is better), rates per second (higher is better); the"
  echo "ratio is navd / Redis either way. navd publishes a Mutate changing one title"
  echo "(200-byte parameters) to layout subscribers; Redis a 200-byte PUBLISH. The op kinds'"
  echo "rows (navbench's \`ops\` scenario, each kind on one scene of three screens with bar button"
  echo "items and ten toolbar items, subscribers at width 768) publish that kind's Mutate, and"
  echo "Redis a PUBLISH of the same bytes; their summary follows the table."
  echo
  "$navbench" report --navd "${navd_files[@]}" --redis "${redis_files[@]}"
  echo
  echo "The engine in process (\`navbench --engine\`, no sockets; per second of CPU time), medians:"
  echo
  "$navbench" report --navd "${engine_files[@]}"
} | tee "$work/report.md"
[ -z "$out" ] || cp "$work/report.md" "$out"
