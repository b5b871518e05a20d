// System calls and structs that Swift's Glibc module does not expose on Linux:
// epoll, eventfd, accept4, SO_PEERCRED and AF_UNIX address handling; and SSE 4.2's crc32.
// Keep this header small: Swift wraps each call once, in NavSystem's Syscall.swift
// (and the server's own calls in NavServer's Syscall.swift).
#ifndef CNAVSYS_H
#define CNAVSYS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/// epoll event bits as plain constants (glibc defines some as enum members whose
/// types import awkwardly into Swift).
static const uint32_t CNAV_EPOLLIN = EPOLLIN;
static const uint32_t CNAV_EPOLLOUT = EPOLLOUT;
static const uint32_t CNAV_EPOLLERR = EPOLLERR;
static const uint32_t CNAV_EPOLLHUP = EPOLLHUP;
static const uint32_t CNAV_EPOLLRDHUP = EPOLLRDHUP;
static const int CNAV_EPOLL_CTL_ADD = EPOLL_CTL_ADD;
static const int CNAV_EPOLL_CTL_MOD = EPOLL_CTL_MOD;
static const int CNAV_EPOLL_CTL_DEL = EPOLL_CTL_DEL;
static const int CNAV_EPOLL_CLOEXEC = EPOLL_CLOEXEC;
static const int CNAV_EFD_CLOEXEC = EFD_CLOEXEC;
static const int CNAV_EFD_NONBLOCK = EFD_NONBLOCK;
/// send() flag that turns SIGPIPE into EPIPE for a peer that has gone away.
static const int CNAV_MSG_NOSIGNAL = MSG_NOSIGNAL;

/// The three fields of `struct ucred` (SO_PEERCRED); glibc hides the real
/// struct behind _GNU_SOURCE, which Swift's Glibc module does not define.
struct cnav_ucred {
  pid_t pid;
  uid_t uid;
  gid_t gid;
};

/// errno of the calling thread (a macro in C, so Swift cannot read it reliably on its own).
static inline int cnav_errno(void) { return errno; }

/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC).
int cnav_accept_nonblocking(int fd);

/// getsockopt(SO_PEERCRED). Returns 0 or -1 with errno set.
int cnav_peer_credentials(int fd, struct cnav_ucred *out);

/// getsockopt(SO_PEERGROUPS): the peer's supplementary groups. Stores up to
/// `capacity` gids in `out` and the peer's total count in `*total`; returns 0,
/// or -1 with errno set (ERANGE is not an error: compare *total with capacity).
int cnav_peer_groups(int fd, gid_t *out, int capacity, int *total);

/// socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK? | SOCK_CLOEXEC).
int cnav_unix_stream_socket(int nonblocking);

/// bind() to a filesystem AF_UNIX path. -1 with errno ENAMETOOLONG when the
/// path does not fit sun_path.
int cnav_bind_unix(int fd, const char *path);

/// connect() to a filesystem AF_UNIX path (same errors as cnav_bind_unix).
int cnav_connect_unix(int fd, const char *path);

/// Longest path that fits sun_path (without the terminating NUL).
int cnav_unix_path_max(void);

/// send(fd, bytes, count, MSG_NOSIGNAL) as the bare system call (sendto), bypassing
/// glibc's send(), which is a thread-cancellation point and so switches asynchronous
/// cancellation on and off around every call (navd never cancels threads). Same result
/// and errno as send(): -1 with EINTR, EAGAIN, EPIPE… set. Inline in this header, so
/// Syscall.send calls syscall() itself (a call fewer per subscriber per publish).
static inline ssize_t cnav_send_nosignal(int fd, const void *bytes, size_t count) {
  return syscall(SYS_sendto, fd, bytes, count, MSG_NOSIGNAL, NULL, 0);
}

/// Bytes malloc holds free in its heap (mallinfo2's fordblks): memory the process
/// keeps but does not use.
size_t cnav_heap_free_bytes(void);

/// Gives the heap's free pages back to the kernel (malloc_trim(0)); 1 when it released any.
int cnav_heap_trim(void);

/// Bytes the heap has handed out and not taken back (mallinfo2: in arenas and mmapped).
size_t cnav_heap_in_use(void);

/// Fixes glibc's trim threshold (mallopt(M_TRIM_THRESHOLD)), which also stops glibc
/// from raising it and the mmap threshold as it goes; 1 on success.
int cnav_heap_fix_trim_threshold(size_t bytes);

/// Fixes glibc's mmap threshold (mallopt(M_MMAP_THRESHOLD)): smaller blocks come from the
/// arenas, not mmap; 1 on success.
int cnav_heap_fix_mmap_threshold(size_t bytes);

/// Bytes of the heap's mmapped blocks in use (mallinfo2's hblkhd).
size_t cnav_heap_mmapped_bytes(void);

/// The process's resident memory in bytes (/proc/self/statm), or -1 when it cannot be read.
long long cnav_resident_bytes(void);

/// Names the calling thread (the kernel keeps 15 bytes), as `ps -L` and `top -H` show it.
void cnav_name_current_thread(const char *name);

/// Sets O_NONBLOCK on fd. Returns 0 or -1 with errno set.
int cnav_set_nonblocking(int fd);

/// setsockopt(SO_SNDBUF / SO_RCVBUF); used by tests to make slow readers slow quickly.
int cnav_set_buffer_sizes(int fd, int send_bytes, int receive_bytes);

/// setsockopt(SO_RCVTIMEO / SO_SNDTIMEO) in milliseconds; used by blocking test clients.
int cnav_set_timeouts(int fd, int milliseconds);

/// Whether this CPU has SSE 4.2's `crc32` instruction (x86-64 only; 0 elsewhere), which
/// cnav_crc32c_hardware needs.
static inline int cnav_crc32c_hardware_available(void) {
#if defined(__x86_64__)
  return __builtin_cpu_supports("sse4.2") ? 1 : 0;
#else
  return 0;
#endif
}

/// CRC-32C of `count` bytes with the CPU's `crc32` instruction, eight bytes at a time,
/// continuing from `crc` in register form (already inverted: ~0 to start, invert the result).
/// Call only when cnav_crc32c_hardware_available() is 1; NavStore's CRC32C keeps a portable
/// table path as the reference. Inline in this header rather than in CNavSys.c: compiled with
/// the Swift code that calls it, its debug info stays in the DWARF version valgrind reads.
#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static inline uint32_t cnav_crc32c_hardware(
    uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *p = (const unsigned char *)bytes;
  uint64_t wide = crc;
  for (; count >= 8; p += 8, count -= 8) {
    uint64_t word;
    __builtin_memcpy(&word, p, 8);
    wide = __builtin_ia32_crc32di(wide, word);
  }
  crc = (uint32_t)wide;
  for (; count > 0; p += 1, count -= 1) crc = __builtin_ia32_crc32qi(crc, *p);
  return crc;
}
#else
static inline uint32_t cnav_crc32c_hardware(uint32_t crc, const void *bytes, size_t count) {
  (void)crc;
  (void)bytes;
  (void)count;
  __builtin_trap();  // never called: cnav_crc32c_hardware_available() is 0 here
}
#endif

/// The width in columns of the terminal on fd (ioctl TIOCGWINSZ, which Swift
/// cannot call: ioctl is variadic); 0 when fd is not a terminal.
int cnav_terminal_columns(int fd);

/// glibc's memmem (a GNU extension, which Swift's Glibc module does not declare):
/// the first occurrence of needle in haystack, or NULL.
const void *cnav_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
