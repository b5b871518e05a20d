// libsystemd (Debian's libsystemd-dev, systemd 252) for Swift.
// Only what navd calls: socket activation, sd_notify (READY/STATUS/WATCHDOG/
// STOPPING/FDSTORE) and the journal. The variadic sd_notifyf/sd_journal_send do
// not import into Swift; navd builds the strings itself and calls sd_notify /
// sd_journal_sendv. Macros Swift cannot see are re-exported as constants.
#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H

#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/uio.h>
#include <syslog.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

/// The first passed file descriptor (3).
static const int CSD_LISTEN_FDS_START = SD_LISTEN_FDS_START;

/// Frees the array sd_listen_fds_with_names returned (each name, then the array).
static inline void csd_free_names(char **names, int count) {
  if (names == 0) return;
  for (int i = 0; i < count; i++) free(names[i]);
  free(names);
}

/// memfd_create(name, MFD_CLOEXEC): an anonymous file for the fd store's state record
/// (glibc declares it only with _GNU_SOURCE, which Swift's Glibc module lacks).
static inline int csd_memfd(const char *name) { return (int)syscall(SYS_memfd_create, name, 1U); }

#endif
