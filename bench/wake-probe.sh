#!/usr/bin/env bash
# When a subscriber's message arrives, seen from a client blocked on one socket or
# the other, for navd and for Redis. One C client with one writer connection and one
# subscriber, closed loop: send a Mutate that changes a title (navd: a layout
# subscriber) or a 200-byte PUBLISH (Redis: a SUBSCRIBE), then either
#   ack:    block in read() on the writer's socket for the reply, then read the update;
#   update: block in read() on the subscriber's socket for the update, then read the reply.
# Both orders are timed from the send (p50 of COUNT rounds after 300 warm-up
# rounds), alternating 3 times. Both servers send the reply first and the update
# right after it (navd within ~1 µs, strace), so "ack" shows when the update was
# there; "update" shows when a reader waiting for it wakes. navbench's delivery
# rows wait the second way.
#
# Where the client and the server run decides what is measured (BENCHMARKS.md):
# --placement pins them as bench/compare.sh does (free, apart or together).
#
# Usage: bench/wake-probe.sh [--count COUNT] [--placement free|apart|together] [--skip-build]
# Installs gcc and redis-server when missing (apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

count=3000
placement=free
skip_build=0
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count="${2:?--count needs a value}"; shift 2 ;;
    --placement) placement="${2:?--placement needs a value}"; shift 2 ;;
    --skip-build) skip_build=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "wake-probe.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
case "$count" in ''|*[!0-9]*|0) echo "wake-probe.sh: --count needs a positive whole number" >&2; exit 2 ;; esac
. bench/placement.sh
place wake-probe.sh "$placement"
install() {  # package
  echo "wake-probe.sh: installing $1" >&2
  # As compare.sh: the package lists of a fresh machine may be empty until an update.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null; }
}
command -v gcc >/dev/null || install gcc
command -v redis-server >/dev/null || install redis-server
[ "$skip_build" -eq 1 ] || swift build -c release --static-swift-stdlib --product navd >&2

work="$(mktemp -d /tmp/navd-wake-probe.XXXXXX)"
navd_pid=""
redis_pid=""
cleanup() {
  for pid in $navd_pid $redis_pid; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
cat > "$work/probe.c" <<'C'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int resp; /* Redis (RESP) rather than navd (Varlink) */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int connected(const char *path) {
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  strncpy(address.sun_path, path, sizeof address.sun_path - 1);
  if (connect(fd, (struct sockaddr *)&address, sizeof address)) { perror("connect"); exit(1); }
  return fd;
}

/* Reads one message: navd's ends with a NUL; Redis's is `lines` CRLF-ended lines (the
   probe never has two in flight per socket, and no payload holds a line break). */
static void message(int fd, int lines) {
  static char buffer[1 << 16];
  size_t length = 0;
  int seen = 0;
  for (;;) {
    ssize_t n = read(fd, buffer + length, sizeof buffer - length - 1);
    if (n <= 0) { perror("read"); exit(1); }
    for (ssize_t i = 0; i < n; i++) seen += buffer[length + i] == '\n';
    length += (size_t)n;
    if (resp ? seen >= lines : buffer[length - 1] == 0) break;
  }
  buffer[length] = 0;
  if (resp ? buffer[0] == '-' : strstr(buffer, "\"error\"") != NULL) {
    fprintf(stderr, "the server refused: %s\n", buffer);
    exit(1);
  }
}

static void send_all(int fd, const char *bytes, size_t length) {
  if (write(fd, bytes, length) != (ssize_t)length) { perror("write"); exit(1); }
}

/* navd's calls are NUL-terminated JSON. */
static void call(int fd, const char *json) { send_all(fd, json, strlen(json) + 1); }

static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const char *path = argv[1];
  int waitForUpdate = strcmp(argv[2], "update") == 0, count = atoi(argv[3]), warmUp = 300;
  resp = argc > 4 && strcmp(argv[4], "redis") == 0;
  int writer = connected(path), subscriber = connected(path);
  /* Lines of a reply and of an update: `:1` and `*3 $7 message $5 probe $200 payload`. */
  int ackLines = 1, updateLines = 7;
  char payload[201];
  memset(payload, 'x', 200);
  payload[200] = 0;
  if (resp) {
    const char *subscribe = "*2\r\n$9\r\nSUBSCRIBE\r\n$5\r\nprobe\r\n";
    send_all(subscriber, subscribe, strlen(subscribe));
    message(subscriber, 6);
  } else {
    call(writer, "{\"method\":\"io.navd.Mutate\",\"parameters\":{\"scene\":\"probe\",\"ops\":"
                 "[{\"op\":\"setStack\",\"items\":[{\"id\":\"root\",\"title\":\"Probe\"}]}]}}");
    message(writer, 0);
    call(subscriber, "{\"method\":\"io.navd.Subscribe\",\"parameters\":{\"scene\":\"probe\",\"width\":375},\"more\":true}");
    message(subscriber, 0);
  }
  double *firsts = malloc(sizeof(double) * count), *seconds = malloc(sizeof(double) * count);
  char frame[512];
  for (int i = 0; i < warmUp + count; i++) {
    int length;
    if (resp)
      length = snprintf(frame, sizeof frame, "*3\r\n$7\r\nPUBLISH\r\n$5\r\nprobe\r\n$200\r\n%s\r\n", payload);
    else
      length = snprintf(frame, sizeof frame,
                        "{\"method\":\"io.navd.Mutate\",\"parameters\":{\"scene\":\"probe\",\"ops\":[{\"op\":"
                        "\"updateNavigationItem\",\"item\":\"root\",\"set\":{\"title\":\"Title %d\"}}]}}",
                        i) + 1;
    double sent = now();
    send_all(writer, frame, (size_t)length);
    if (waitForUpdate) message(subscriber, updateLines); else message(writer, ackLines);
    double first = now();
    if (waitForUpdate) message(writer, ackLines); else message(subscriber, updateLines);
    double second = now();
    if (i >= warmUp) {
      firsts[i - warmUp] = first - sent;
      seconds[i - warmUp] = second - sent;
    }
  }
  qsort(firsts, count, sizeof(double), ascending);
  qsort(seconds, count, sizeof(double), ascending);
  printf("%-5s blocked on the %s socket: the %s after %.1f µs, the %s after %.1f µs (p50)\n",
         resp ? "Redis" : "navd", waitForUpdate ? "subscriber's" : "writer's", waitForUpdate ? "update" : "reply",
         firsts[count / 2] / 1000, waitForUpdate ? "reply" : "update", seconds[count / 2] / 1000);
  return 0;
}
C
gcc -O2 -o "$work/probe" "$work/probe.c"
"${on_server[@]}" .build/release/navd --socket "$work/navd.sock" --state-dir "$work/state" > "$work/navd.log" 2>&1 &
navd_pid=$!
"${on_server[@]}" redis-server --port 0 --unixsocket "$work/redis.sock" --unixsocketperm 700 --save '' \
  --appendonly no --dir "$work" --logfile "$work/redis.log" &
redis_pid=$!
for _ in $(seq 100); do [ -S "$work/navd.sock" ] && [ -S "$work/redis.sock" ] && break; sleep 0.05; done
[ -S "$work/navd.sock" ] || { echo "wake-probe.sh: navd did not start" >&2; cat "$work/navd.log" >&2; exit 1; }
[ -S "$work/redis.sock" ] || { echo "wake-probe.sh: redis-server did not start" >&2; cat "$work/redis.log" >&2; exit 1; }
echo "wake-probe.sh: navd at $(git rev-parse --short HEAD), $(redis-server --version | cut -d' ' -f1-3)," \
  "placement $placement, $count rounds per run, $(uname -r)" >&2
for _ in 1 2 3; do
  for mode in ack update; do
    "${on_client[@]}" "$work/probe" "$work/navd.sock" "$mode" "$count" navd
    "${on_client[@]}" "$work/probe" "$work/redis.sock" "$mode" "$count" redis
  done
done
