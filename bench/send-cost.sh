#!/usr/bin/env bash
# What one subscriber's send costs the sending thread, by how it is issued: a
# `sendto` per subscriber (what navd and Redis do) against one `io_uring_enter`
# carrying a SEND for every subscriber (the idea for delivering to many with
# fewer system calls). N Unix stream socket pairs, a 293-byte message (navd's
# title update) to each, ROUNDS rounds; the receiving ends are drained between
# rounds, outside the clock. Also prints a bare system call (getppid), the
# floor a batched submission could save per send.
#
# Usage: bench/send-cost.sh [--subscribers N] [--rounds ROUNDS]
#   --subscribers N   socket pairs written per round (default 64)
#   --rounds ROUNDS   rounds timed (default 20000)
# Installs gcc and liburing-dev when missing (apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

subscribers=64
rounds=20000
while [ $# -gt 0 ]; do
  case "$1" in
    --subscribers) subscribers="${2:?--subscribers needs a value}"; shift 2 ;;
    --rounds) rounds="${2:?--rounds needs a value}"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "send-cost.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
for value in "$subscribers" "$rounds"; do
  case "$value" in ''|*[!0-9]*|0) echo "send-cost.sh: counts must be positive whole numbers" >&2; exit 2 ;; esac
done
[ "$subscribers" -le 4096 ] || { echo "send-cost.sh: at most 4096 subscribers" >&2; exit 2; }
if ! command -v gcc >/dev/null || [ ! -e /usr/include/liburing.h ]; then
  echo "send-cost.sh: installing gcc and liburing-dev" >&2
  # As compare.sh: the package lists of a fresh machine may be empty until an update.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc liburing-dev >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc liburing-dev >/dev/null; }
fi

work="$(mktemp -d /tmp/navd-send-cost.XXXXXX)"
trap 'rm -rf "$work"' EXIT
cat > "$work/send-cost.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]), rounds = atoi(argv[2]);
  int (*pairs)[2] = calloc(n, sizeof *pairs);
  char message[293], sink[1 << 16];
  memset(message, 'x', sizeof message);
  for (int i = 0; i < n; i++) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pairs[i])) { perror("socketpair"); return 1; }
    fcntl(pairs[i][1], F_SETFL, O_NONBLOCK);
  }
  double start = now();
  for (long i = 0; i < (long)rounds * n; i++) syscall(SYS_getppid);
  printf("a bare system call (getppid)\t%.0f ns\n", (now() - start) / ((double)rounds * n));

  double sending = 0;
  for (int r = 0; r < rounds; r++) {
    double began = now();
    for (int i = 0; i < n; i++) {
      if (send(pairs[i][0], message, sizeof message, MSG_NOSIGNAL) != sizeof message) { perror("send"); return 1; }
    }
    sending += now() - began;
    for (int i = 0; i < n; i++) (void)!read(pairs[i][1], sink, sizeof sink);
  }
  printf("sendto, one per subscriber\t%.0f ns per send\n", sending / rounds / n);

  struct io_uring ring;
  int error = io_uring_queue_init(n < 8 ? 8 : n, &ring, 0);
  if (error) { fprintf(stderr, "io_uring_queue_init: %s\n", strerror(-error)); return 1; }
  double submitting = 0;
  for (int r = 0; r < rounds; r++) {
    double began = now();
    for (int i = 0; i < n; i++) {
      struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
      io_uring_prep_send(sqe, pairs[i][0], message, sizeof message, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    io_uring_submit(&ring);
    unsigned head, done = 0;
    struct io_uring_cqe *cqe;
    io_uring_for_each_cqe(&ring, head, cqe) {
      if (cqe->res != sizeof message) { fprintf(stderr, "send: %d\n", cqe->res); return 1; }
      done++;
    }
    io_uring_cq_advance(&ring, done);
    if (done != (unsigned)n) { fprintf(stderr, "io_uring completed %u of %d sends inline\n", done, n); return 1; }
    submitting += now() - began;
    for (int i = 0; i < n; i++) (void)!read(pairs[i][1], sink, sizeof sink);
  }
  printf("io_uring, one submission of every send\t%.0f ns per send\n", submitting / rounds / n);
  return 0;
}
C
gcc -O2 -o "$work/send-cost" "$work/send-cost.c" -luring
echo "send-cost.sh: $subscribers subscribers, $rounds rounds, $(uname -r)" >&2
"$work/send-cost" "$subscribers" "$rounds"
