#!/usr/bin/env bash
# When a subscriber's update arrives, seen from a client blocked on one socket or
# the other. One C client, one writer connection and one layout subscriber on a
# release navd (private socket, a state directory), closed loop: send a Mutate
# that changes a title, then either
#   ack:    block in read() on the writer's socket for the reply, then read the update;
#   update: block in read() on the subscriber's socket for the update, then read the reply.
# Both orders are timed from the send (p50 of COUNT rounds after 300 warm-up
# rounds), alternating 3 times. navd sends the reply and then the update within
# ~1 µs (strace), so "ack" shows when the update was there; "update" shows when a
# reader waiting for it wakes. navbench's delivery rows wait the second way.
#
# Usage: bench/wake-probe.sh [--count COUNT] [--skip-build]
# Installs gcc when missing (apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

count=3000
skip_build=0
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count="${2:?--count needs a value}"; shift 2 ;;
    --skip-build) skip_build=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "wake-probe.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
case "$count" in ''|*[!0-9]*|0) echo "wake-probe.sh: --count needs a positive whole number" >&2; exit 2 ;; esac
if ! command -v gcc >/dev/null; then
  echo "wake-probe.sh: installing gcc" >&2
  # As compare.sh: the package lists of a fresh machine may be empty until an update.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc >/dev/null; }
fi
[ "$skip_build" -eq 1 ] || swift build -c release --static-swift-stdlib --product navd >&2

work="$(mktemp -d /tmp/navd-wake-probe.XXXXXX)"
navd_pid=""
cleanup() {
  if [ -n "$navd_pid" ]; then kill "$navd_pid" 2>/dev/null || true; wait "$navd_pid" 2>/dev/null || true; fi
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

/* Reads one NUL-terminated message (the probe never has two in flight per socket). */
static void message(int fd) {
  static char buffer[1 << 16];
  size_t length = 0;
  for (;;) {
    ssize_t n = read(fd, buffer + length, sizeof buffer - length);
    if (n <= 0) { perror("read"); exit(1); }
    length += (size_t)n;
    if (buffer[length - 1] == 0) break;
  }
  if (strstr(buffer, "\"error\"")) { fprintf(stderr, "navd refused: %s\n", buffer); exit(1); }
}

static void call(int fd, const char *json) {
  if (write(fd, json, strlen(json) + 1) != (ssize_t)strlen(json) + 1) { perror("write"); exit(1); }
}

static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const char *path = argv[1];
  int waitForUpdate = strcmp(argv[2], "update") == 0, count = atoi(argv[3]), warmUp = 300;
  int writer = connected(path), subscriber = connected(path);
  call(writer, "{\"method\":\"io.navd.Mutate\",\"parameters\":{\"scene\":\"probe\",\"ops\":"
               "[{\"op\":\"setStack\",\"items\":[{\"id\":\"root\",\"title\":\"Probe\"}]}]}}");
  message(writer);
  call(subscriber, "{\"method\":\"io.navd.Subscribe\",\"parameters\":{\"scene\":\"probe\",\"width\":375},\"more\":true}");
  message(subscriber);
  double *firsts = malloc(sizeof(double) * count), *seconds = malloc(sizeof(double) * count);
  char frame[512];
  for (int i = 0; i < warmUp + count; i++) {
    snprintf(frame, sizeof frame,
             "{\"method\":\"io.navd.Mutate\",\"parameters\":{\"scene\":\"probe\",\"ops\":[{\"op\":"
             "\"updateNavigationItem\",\"item\":\"root\",\"set\":{\"title\":\"Title %d\"}}]}}", i);
    double sent = now();
    call(writer, frame);
    message(waitForUpdate ? subscriber : writer);
    double first = now();
    message(waitForUpdate ? writer : subscriber);
    double second = now();
    if (i >= warmUp) {
      firsts[i - warmUp] = first - sent;
      seconds[i - warmUp] = second - sent;
    }
  }
  qsort(firsts, count, sizeof(double), ascending);
  qsort(seconds, count, sizeof(double), ascending);
  printf("blocked on the %s socket: the %s after %.1f µs, the %s after %.1f µs (p50)\n",
         waitForUpdate ? "subscriber's" : "writer's", waitForUpdate ? "update" : "reply", firsts[count / 2] / 1000,
         waitForUpdate ? "reply" : "update", seconds[count / 2] / 1000);
  return 0;
}
C
gcc -O2 -o "$work/probe" "$work/probe.c"
.build/release/navd --socket "$work/navd.sock" --state-dir "$work/state" > "$work/navd.log" 2>&1 &
navd_pid=$!
for _ in $(seq 100); do [ -S "$work/navd.sock" ] && break; sleep 0.05; done
[ -S "$work/navd.sock" ] || { echo "wake-probe.sh: navd did not start" >&2; cat "$work/navd.log" >&2; exit 1; }
echo "wake-probe.sh: navd at $(git rev-parse --short HEAD), $count rounds per run, $(uname -r)" >&2
for _ in 1 2 3; do
  "$work/probe" "$work/navd.sock" ack "$count"
  "$work/probe" "$work/navd.sock" update "$count"
done
