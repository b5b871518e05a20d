#define _GNU_SOURCE
#include "CSystemd.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <unistd.h>

// journald's stream socket (what sd_journal_stream_fd connects to).
static const char journal_stream_socket[] = "/run/systemd/journal/stdout";

// The functions navd calls, resolved once from libsystemd.so.0 (types from its headers).
static struct {
  __typeof__(sd_listen_fds_with_names) *listen_fds_with_names;
  __typeof__(sd_is_socket_unix) *is_socket_unix;
  __typeof__(sd_notify) *notify;
  __typeof__(sd_pid_notify_with_fds) *pid_notify_with_fds;
  __typeof__(sd_watchdog_enabled) *watchdog_enabled;
  __typeof__(sd_journal_stream_fd) *journal_stream_fd;
  __typeof__(sd_journal_sendv) *journal_sendv;
} systemd;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256];

static void load(void) {
  void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    strncpy(load_error, why ? why : "dlopen(libsystemd.so.0) failed", sizeof(load_error) - 1);
    return;
  }
#define RESOLVE(field, symbol)                                                        \
  systemd.field = (__typeof__(systemd.field))dlsym(library, #symbol);                 \
  if (systemd.field == NULL) {                                                        \
    strncpy(load_error, "libsystemd.so.0 has no " #symbol, sizeof(load_error) - 1);   \
    return;                                                                           \
  }
  RESOLVE(listen_fds_with_names, sd_listen_fds_with_names)
  RESOLVE(is_socket_unix, sd_is_socket_unix)
  RESOLVE(notify, sd_notify)
  RESOLVE(pid_notify_with_fds, sd_pid_notify_with_fds)
  RESOLVE(watchdog_enabled, sd_watchdog_enabled)
  RESOLVE(journal_stream_fd, sd_journal_stream_fd)
  RESOLVE(journal_sendv, sd_journal_sendv)
#undef RESOLVE
  __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

// Loads libsystemd on first use; whether every function navd calls was found.
static int ready(void) {
  pthread_once(&load_once, load);
  return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE);
}

int csd_listen_fds_with_names(int unset_environment, char ***names) {
  if (getenv("LISTEN_FDS") == NULL) return 0;
  if (!ready()) return -ENOSYS;
  return systemd.listen_fds_with_names(unset_environment, names);
}

int csd_is_socket_unix(int fd, int type, int listening, const char *path, size_t length) {
  if (!ready()) return -ENOSYS;
  return systemd.is_socket_unix(fd, type, listening, path, length);
}

int csd_notify(int unset_environment, const char *state) {
  if (getenv("NOTIFY_SOCKET") == NULL) return 0;
  if (!ready()) return -ENOSYS;
  return systemd.notify(unset_environment, state);
}

int csd_pid_notify_with_fds(pid_t pid, int unset_environment, const char *state, const int *fds, unsigned n_fds) {
  if (getenv("NOTIFY_SOCKET") == NULL) return 0;
  if (!ready()) return -ENOSYS;
  return systemd.pid_notify_with_fds(pid, unset_environment, state, fds, n_fds);
}

int csd_watchdog_enabled(int unset_environment, uint64_t *usec) {
  if (getenv("WATCHDOG_USEC") == NULL) return 0;
  if (!ready()) return -ENOSYS;
  return systemd.watchdog_enabled(unset_environment, usec);
}

int csd_journal_stream_fd(const char *identifier, int priority, int level_prefix) {
  if (access(journal_stream_socket, F_OK) != 0) return -ENOENT;
  if (!ready()) return -ENOSYS;
  return systemd.journal_stream_fd(identifier, priority, level_prefix);
}

int csd_journal_sendv(const struct iovec *iov, int n) {
  if (!ready()) return -ENOSYS;
  return systemd.journal_sendv(iov, n);
}

int csd_load(void) { return ready() ? 0 : -ENOSYS; }

int csd_is_loaded(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }

const char *csd_load_error(void) { return load_error[0] ? load_error : NULL; }

void csd_free_names(char **names, int count) {
  if (names == NULL) return;
  for (int i = 0; i < count; i++) free(names[i]);
  free(names);
}

int csd_memfd(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
