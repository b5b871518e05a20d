import NavEngine

/// The database layout, versioned with `PRAGMA user_version` (Protocol/STORAGE.md).
///
/// `migrations[n]` takes a database from version `n` to `n + 1`; a new database runs them
/// all. Never edit a released step: add one. A database whose version is above
/// `current` was written by a newer navd and is refused, never guessed at.
enum Schema {
  /// The version this navd writes.
  static var current: Int { migrations.count }

  static let migrations: [String] = [
    // 0 → 1: scenes with their newest snapshot, and the log after it.
    """
    CREATE TABLE scenes (
      name TEXT PRIMARY KEY NOT NULL,
      epoch TEXT NOT NULL,
      snapshot_version INTEGER NOT NULL,
      snapshot TEXT NOT NULL
    );
    CREATE TABLE log (
      scene TEXT NOT NULL,
      version INTEGER NOT NULL,
      client TEXT NOT NULL,
      mutation_id TEXT,
      ops TEXT NOT NULL,
      PRIMARY KEY (scene, version)
    );
    """,
    // 1 → 2: remembered mutation ids survive restarts (CONFLICTS.md I1–I4); the log keeps the ops' digest.
    """
    ALTER TABLE log ADD COLUMN digest INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE mutation_ids (
      scene TEXT NOT NULL,
      client TEXT NOT NULL,
      mutation_id TEXT NOT NULL,
      digest INTEGER NOT NULL,
      outcome TEXT NOT NULL,
      version INTEGER NOT NULL,
      PRIMARY KEY (scene, client, mutation_id)
    );
    CREATE INDEX mutation_ids_by_version ON mutation_ids (scene, version);
    """,
    // 2 → 3: the log is clustered on its key (WITHOUT ROWID), so appending a version writes one
    // B-tree, not a table and its primary-key index: fewer pages to the WAL per commit.
    """
    CREATE TABLE log_by_key (
      scene TEXT NOT NULL,
      version INTEGER NOT NULL,
      client TEXT NOT NULL,
      mutation_id TEXT,
      ops TEXT NOT NULL,
      digest INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (scene, version)
    ) WITHOUT ROWID;
    INSERT INTO log_by_key (scene, version, client, mutation_id, ops, digest)
      SELECT scene, version, client, mutation_id, ops, digest FROM log;
    DROP TABLE log;
    ALTER TABLE log_by_key RENAME TO log;
    """,
  ]

  /// Brings `database` to `current`, each step in its own transaction; refuses a newer one.
  static func migrate(_ database: SQLiteDatabase) throws(StoreError) {
    let found = Int(try database.integer("PRAGMA user_version"))
    try refuseNewer(found, path: database.path)
    if found == 0, try database.integer("SELECT count(*) FROM sqlite_schema") == 0 {
      // Only an empty file can still choose its vacuum mode without a full VACUUM.
      try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
    }
    for step in found..<current {
      try database.execute("BEGIN IMMEDIATE")
      do throws(StoreError) {
        try database.execute(migrations[step])
        try database.execute("PRAGMA user_version = \(step + 1)")
        try database.execute("COMMIT")
      } catch {
        if database.inTransaction { try? database.execute("ROLLBACK") }
        throw StoreError(error.kind, "migrating \(database.path) from schema \(step) to \(step + 1): \(error.message)")
      }
    }
    if try database.integer("PRAGMA auto_vacuum") != 2 {
      // A database made before auto_vacuum was chosen (or by hand): switch once, which needs a VACUUM.
      try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
      try database.execute("VACUUM")
    }
  }

  /// Throws `.tooNew` when `version` is above what this navd understands.
  static func refuseNewer(_ version: Int, path: String) throws(StoreError) {
    guard version > current else { return }
    throw StoreError(
      .tooNew,
      "\(path) was written by a newer navd (schema version \(version); this navd reads up to \(current)). "
        + "Run the newer navd, or move the file aside to start empty")
  }
}
