import NavEngine

/// The database layout, versioned with `PRAGMA user_version` (Protocol/STORAGE.md).
///
/// `migrations[n]` takes a database from version `n` to `n + 1`. Never edit a released step:
/// add one, and update `newDatabase` to match (a test compares the two). A new database is
/// made by `newDatabase` in one transaction. A database whose version is above `current` was
/// written by a newer navd and is refused, never guessed at.
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
    // 3 → 4: how far navd's redo log has been applied (STORAGE.md §2): a start replays only
    // the records after it.
    """
    CREATE TABLE redo_applied (sequence INTEGER NOT NULL);
    INSERT INTO redo_applied (sequence) VALUES (0);
    """,
  ]

  /// The layout at `current`, for a new database: the tables, columns, keys and indexes that
  /// running every migration from 0 leaves (`SchemaTests` compares the two). Running the
  /// steps one transaction each cost a first start ~3 million instructions, a quarter
  /// of it (callgrind); this is one transaction.
  static let newDatabase = """
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
      digest INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (scene, version)
    ) WITHOUT ROWID;
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
    CREATE TABLE redo_applied (sequence INTEGER NOT NULL);
    INSERT INTO redo_applied (sequence) VALUES (0);
    """

  /// Brings `database` to `current`, each step in its own transaction (an empty file: in one,
  /// `newDatabase`); refuses a newer one.
  static func migrate(_ database: SQLiteDatabase) throws(StoreError) {
    let found = Int(try database.integer("PRAGMA user_version"))
    try refuseNewer(found, path: database.path)
    if found == 0, try database.integer("SELECT count(*) FROM sqlite_schema") == 0 {
      // Only an empty file can still choose its vacuum mode without a full VACUUM.
      try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
      try run(newDatabase, to: current, in: database, what: "creating \(database.path) at schema \(current)")
      return
    }
    for step in found..<current {
      try run(
        migrations[step], to: step + 1, in: database,
        what: "migrating \(database.path) from schema \(step) to \(step + 1)")
    }
    if try database.integer("PRAGMA auto_vacuum") != 2 {
      // A database made before auto_vacuum was chosen (or by hand): switch once, which needs a VACUUM.
      try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
      try database.execute("VACUUM")
    }
  }

  /// Runs `script` and sets `user_version` to `version` in one transaction.
  private static func run(_ script: String, to version: Int, in database: SQLiteDatabase, what: String)
    throws(StoreError)
  {
    try database.execute("BEGIN IMMEDIATE")
    do throws(StoreError) {
      try database.execute(script)
      try database.execute("PRAGMA user_version = \(version)")
      try database.execute("COMMIT")
    } catch {
      if database.inTransaction { try? database.execute("ROLLBACK") }
      throw StoreError(error.kind, "\(what): \(error.message)")
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
