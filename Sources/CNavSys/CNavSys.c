#define _GNU_SOURCE
#include <sys/ioctl.h>
#include "CNavSys.h"

#include <fcntl.h>
#include <malloc.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

int cnav_accept_nonblocking(int fd) {
  return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int cnav_peer_credentials(int fd, struct cnav_ucred *out) {
  struct ucred cred;
  socklen_t length = sizeof(cred);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) return -1;
  out->pid = cred.pid;
  out->uid = cred.uid;
  out->gid = cred.gid;
  return 0;
}

int cnav_peer_groups(int fd, gid_t *out, int capacity, int *total) {
  socklen_t length = (socklen_t)(capacity * sizeof(gid_t));
  if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, out, &length) != 0 && errno != ERANGE) return -1;
  *total = (int)(length / sizeof(gid_t));
  return 0;
}

int cnav_unix_stream_socket(int nonblocking) {
  return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
}

static int fill_address(struct sockaddr_un *address, const char *path) {
  size_t length = strlen(path);
  memset(address, 0, sizeof(*address));
  address->sun_family = AF_UNIX;
  if (length == 0 || length >= sizeof(address->sun_path)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(address->sun_path, path, length);
  return 0;
}

int cnav_bind_unix(int fd, const char *path) {
  struct sockaddr_un address;
  if (fill_address(&address, path) != 0) return -1;
  return bind(fd, (struct sockaddr *)&address, sizeof(address));
}

int cnav_connect_unix(int fd, const char *path) {
  struct sockaddr_un address;
  if (fill_address(&address, path) != 0) return -1;
  return connect(fd, (struct sockaddr *)&address, sizeof(address));
}

int cnav_unix_path_max(void) {
  struct sockaddr_un address;
  return (int)sizeof(address.sun_path) - 1;
}

int cnav_set_nonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return -1;
  return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

int cnav_set_buffer_sizes(int fd, int send_bytes, int receive_bytes) {
  if (send_bytes > 0 && setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &send_bytes, sizeof(send_bytes)) != 0) return -1;
  if (receive_bytes > 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_bytes, sizeof(receive_bytes)) != 0) return -1;
  return 0;
}

int cnav_set_timeouts(int fd, int milliseconds) {
  struct timeval tv;
  tv.tv_sec = milliseconds / 1000;
  tv.tv_usec = (milliseconds % 1000) * 1000;
  if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0) return -1;
  return setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

int cnav_terminal_columns(int fd) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

void cnav_name_current_thread(const char *name) {
  prctl(PR_SET_NAME, name, 0, 0, 0);
}

size_t cnav_heap_free_bytes(void) {
  return mallinfo2().fordblks;
}

int cnav_heap_trim(void) {
  return malloc_trim(0);
}

size_t cnav_heap_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

int cnav_heap_fix_trim_threshold(size_t bytes) {
  return mallopt(M_TRIM_THRESHOLD, (int)bytes);
}

int cnav_heap_fix_mmap_threshold(size_t bytes) {
  return mallopt(M_MMAP_THRESHOLD, (int)bytes);
}

size_t cnav_heap_mmapped_bytes(void) {
  return mallinfo2().hblkhd;
}

long long cnav_resident_bytes(void) {
  int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char text[128];
  ssize_t length = read(fd, text, sizeof(text) - 1);
  close(fd);
  if (length <= 0) return -1;
  text[length] = 0;
  long long size = 0, resident = 0;
  if (sscanf(text, "%lld %lld", &size, &resident) != 2) return -1;
  return resident * sysconf(_SC_PAGESIZE);
}

const void *cnav_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
  return memmem(haystack, haystack_length, needle, needle_length);
}
