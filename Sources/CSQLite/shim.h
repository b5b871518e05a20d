// SQLite from the system (Debian: libsqlite3-dev). NavStore wraps it once, in SQLiteDatabase.swift.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies bound text before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// SQLITE_STATIC likewise: SQLite reads bound text in place until the statement is rebound or finalized.
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/// sqlite3_config is variadic (Swift cannot call it). Turns off SQLite's memory statistics, which
/// take a global mutex around every allocation; navd never reads them. Works only before SQLite
/// initializes (the first open in the process); returns SQLITE_MISUSE after.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

#endif
