// libsystemd (systemd 252) for Swift, loaded only when navd runs under systemd.
//
// navd does not link libsystemd: linking it (with libgcrypt, liblzma, libzstd, liblz4,
// libcap and libgpg-error behind it) cost every start ~0.5 ms of loading and relocating,
// measured on the project's machine, for functions a navd started by hand never calls.
// Each csd_ function below returns what its sd_ namesake returns, without loading
// libsystemd when the environment says there is nothing to talk to (no LISTEN_FDS, no
// NOTIFY_SOCKET, no WATCHDOG_USEC, no journal socket). Otherwise the first call dlopens
// libsystemd.so.0; when that fails, each returns -ENOSYS (csd_load_error says why).
//
// The variadic sd_notifyf/sd_journal_send do not import into Swift; navd builds the
// strings itself and calls csd_notify / csd_journal_sendv.
#ifndef CSYSTEMD_H
#define CSYSTEMD_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

/// The first passed file descriptor (SD_LISTEN_FDS_START).
static const int CSD_LISTEN_FDS_START = 3;

/// sd_listen_fds_with_names; 0 without LISTEN_FDS in the environment.
int csd_listen_fds_with_names(int unset_environment, char ***names);

/// sd_is_socket_unix.
int csd_is_socket_unix(int fd, int type, int listening, const char *path, size_t length);

/// sd_notify; 0 without NOTIFY_SOCKET in the environment.
int csd_notify(int unset_environment, const char *state);

/// sd_pid_notify_with_fds; 0 without NOTIFY_SOCKET in the environment.
int csd_pid_notify_with_fds(pid_t pid, int unset_environment, const char *state, const int *fds, unsigned n_fds);

/// sd_watchdog_enabled; 0 without WATCHDOG_USEC in the environment.
int csd_watchdog_enabled(int unset_environment, uint64_t *usec);

/// sd_journal_stream_fd; -ENOENT when journald's stream socket does not exist.
int csd_journal_stream_fd(const char *identifier, int priority, int level_prefix);

/// sd_journal_sendv.
int csd_journal_sendv(const struct iovec *iov, int n);

/// Loads libsystemd now: 0, or -ENOSYS when it cannot be loaded (csd_load_error says why).
int csd_load(void);

/// Whether libsystemd has been loaded (for tests: a start by hand must not load it).
int csd_is_loaded(void);

/// Why loading libsystemd failed (dlerror's text), after a csd_ function returned -ENOSYS;
/// NULL when it did not fail or was not tried.
const char *csd_load_error(void);

/// Frees the array csd_listen_fds_with_names returned (each name, then the array).
void csd_free_names(char **names, int count);

/// memfd_create(name, MFD_CLOEXEC): an anonymous file for the fd store's state record
/// (glibc declares it only with _GNU_SOURCE, which Swift's Glibc module lacks).
int csd_memfd(const char *name);

#endif
