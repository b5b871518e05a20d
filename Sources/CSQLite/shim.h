// SQLite from the system (Debian: libsqlite3-dev). NavStore wraps it once, in SQLiteDatabase.swift.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>
#include <time.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies bound text before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// SQLITE_STATIC likewise: SQLite reads bound text in place until the statement is rebound or finalized.
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/// sqlite3_config is variadic (Swift cannot call it). Turns off SQLite's memory statistics, which
/// take a global mutex around every allocation; navd never reads them. Works only before SQLite
/// initializes (the first open in the process); returns SQLITE_MISUSE after.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

/// The writer's busy handler: what the writer waits for is the checkpoint thread's short hold of
/// the WAL's write lock (a RESTART or TRUNCATE checkpoint). SQLite's own handler (busy_timeout)
/// sleeps 1, 2, 5, 10… ms between tries, so even a hold of 50 µs cost the event loop a whole
/// millisecond; this one naps 20 µs for the first 200 tries (a few ms), then 1 ms, and gives up
/// after about 5 s, as busy_timeout = 5000 did.
static inline int csqlite_short_busy_wait(void *unused, int tries) {
  (void)unused;
  if (tries >= 200 + 5000) return 0;
  if (tries < 200) {
    struct timespec nap = {0, 20000};
    nanosleep(&nap, 0);
  } else {
    struct timespec nap = {0, 1000000};
    nanosleep(&nap, 0);
  }
  return 1;
}

/// Installs `csqlite_short_busy_wait` on `db` (instead of a busy timeout).
static inline int csqlite_use_short_busy_wait(sqlite3 *db) { return sqlite3_busy_handler(db, csqlite_short_busy_wait, 0); }

#endif
