import NavEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// navd's durable store: one SQLite database in WAL mode, and (`--durability normal`) the
/// redo log in front of it.
///
/// Each group the engine commits is stored whole when `commit` returns, not at all when it
/// throws, and the next one starts clean (a full disk heals once space returns). How it is
/// written depends on `durability`:
/// - `.normal`: one record appended to the redo log on the caller's thread (no fsync); a
///   thread of the store's own writes the records to the database in batches
///   (`RedoLogCommits`).
/// - `.full`: by a store thread that fsyncs, one transaction per batch of groups across
///   scenes (`ThreadedCommits`).
/// Opening the store first writes whatever the redo log holds past the database's position
/// (`RedoReplay`), whichever the durability.
public final class SQLiteSceneStore: SceneStore {
  /// The database file's name inside the state directory.
  public static let fileName = "navd.db"

  /// The database file.
  public let path: String
  /// How hard each commit works to reach the disk (`--durability`).
  public let durability: Durability
  /// Why the redo log ended early at the start, and what that dropped (for navd's log);
  /// nil when it did not (see `RedoReplay`).
  public let droppedAtStart: String?
  private let commits: Commits

  /// The two ways a group reaches the database.
  private enum Commits {
    case redoLog(RedoLogCommits)
    case storeThread(ThreadedCommits)
  }

  /// Opens (creating or migrating) the database at `path` and checks it (`PRAGMA quick_check`).
  ///
  /// Throws `.corrupt` for a damaged file and `.tooNew` for one written by a newer navd,
  /// each with a message that says how to recover.
  public convenience init(path: String, durability: Durability = .normal) throws(StoreError) {
    try self.init(path: path, durability: durability, redoLimits: RedoLogLimits())
  }

  /// Opens the database; `redoLimits` sizes and paces the redo log (tests make them small).
  init(path: String, durability: Durability, redoLimits: RedoLogLimits) throws(StoreError) {
    self.path = path
    self.durability = durability
    let database: SQLiteDatabase
    do throws(StoreError) {
      try DatabaseCreation.createIfMissing(at: path)
      database = try SQLiteDatabase(path: path)
      // The writer waits for a reader (`navctl export`) in the way of a WAL restart in naps of
      // microseconds, not SQLite's busy_timeout sleeps of milliseconds (CSQLite's shim).
      database.useShortBusyWait()
      try Self.check(database)
      // Before anything writes (even the WAL switch): a newer navd's file stays exactly as it was.
      try Schema.refuseNewer(Int(try database.integer("PRAGMA user_version")), path: path)
      let mode = try database.texts("PRAGMA journal_mode = WAL").first
      guard mode == "wal" else {
        throw StoreError(.io, "\(path): cannot use WAL mode (journal_mode is \(mode ?? "?"))")
      }
      try database.execute(durability.pragma)
      // Debian builds SQLite with secure_delete on: deleted cells and freed pages are zeroed,
      // ~1,300 instructions per commit. What navd deletes (trimmed log rows, forgotten mutation
      // ids) is older than what the file keeps anyway (STORAGE.md §3, "Bounded size").
      try database.execute("PRAGMA secure_delete = OFF")
      // Keeps the WAL file from staying large after a burst (it is reused, and truncated to this, at checkpoints).
      try database.execute("PRAGMA journal_size_limit = 4194304")
      try Schema.migrate(database)
    } catch {
      throw Self.explained(error, path: path)
    }
    do throws(StoreError) {
      let writer = try StoreWriter(database: database)
      let files = RedoLogFiles(databasePath: path)
      let replayed = try RedoReplay.replay(into: writer, databasePath: path, files: files)
      droppedAtStart = replayed.dropped
      switch durability {
      case .full:
        commits = .storeThread(ThreadedCommits(writer: writer))
      case .normal:
        commits = .redoLog(
          try RedoLogCommits(
            writer: writer, files: files, databasePath: path, nextSequence: replayed.last + 1, limits: redoLimits))
      }
    } catch {
      throw Self.explained(error, path: path)
    }
  }

  /// Database transactions committed since the store opened (each holds every group queued
  /// when it began; with the redo log, up to `RedoLogLimits.transactionBytes` of them).
  public var transactions: Int {
    switch commits {
    case .redoLog(let commits): commits.transactions
    case .storeThread(let commits): commits.transactions
    }
  }

  /// How the redo log holds the records its applier has not taken: the size of each chunk
  /// (none without the redo log).
  var redoPendingChunkSizes: [Int] {
    guard case .redoLog(let commits) = commits else { return [] }
    return commits.pendingChunkSizes
  }

  /// Groups waiting for the store thread, and groups it has taken (always none with the redo log).
  var groupCounts: (pending: Int, taken: Int) {
    switch commits {
    case .redoLog: (0, 0)
    case .storeThread(let commits): commits.groupCounts
    }
  }

  /// Every stored scene, read on a connection of its own (the caller's thread: start-up, before
  /// serving). Waits first until the database holds every group committed so far.
  public func load() throws(StoreError) -> [StoredScene] {
    do throws(StoreError) {
      if case .redoLog(let commits) = commits { try commits.waitUntilApplied() }
      let reader = try SceneReader(database: SQLiteDatabase(path: path, readOnly: true))
      var scenes: [StoredScene] = []
      for name in try reader.sceneNames() { scenes.append(try reader.scene(name)) }
      return scenes
    } catch {
      throw Self.explained(error, path: path)
    }
  }

  /// Stores a group; returns once it is durable (per `durability`) or throws and stores nothing.
  nonisolated(nonsending) public func commit(_ records: [CommitRecord]) async throws(StoreError) {
    guard !records.isEmpty else { return }
    switch commits {
    case .redoLog(let commits): try await commits.commit(records)
    case .storeThread(let commits): try await commits.commit(records)
    }
  }

  /// Stores a group at once when the redo log takes it without waiting (`SceneStore.commitAtOnce`);
  /// false with `--durability full`, whose store thread the caller must await.
  public func commitAtOnce(_ records: [CommitRecord]) throws(StoreError) -> Bool {
    guard !records.isEmpty else { return true }
    switch commits {
    case .redoLog(let commits): return try commits.commitAtOnce(records)
    case .storeThread: return false
    }
  }

  /// Finishes the queued commits (the redo log: writes what it holds to the database and
  /// removes it), stops the store's thread and closes the database (checkpointing the WAL).
  /// Later commits fail with `.io`.
  public func close() {
    switch commits {
    case .redoLog(let commits): commits.close()
    case .storeThread(let commits): commits.close()
    }
  }

  deinit { close() }

  /// `PRAGMA quick_check`: the file's structure, before anything is read or written.
  private static func check(_ database: SQLiteDatabase) throws(StoreError) {
    let rows = try database.texts("PRAGMA quick_check")
    guard rows != ["ok"] else { return }
    let shown = rows.prefix(3).joined(separator: "; ") + (rows.count > 3 ? "; …" : "")
    throw StoreError(.corrupt, "\(database.path) is damaged: quick_check found \(rows.count) problem(s): \(shown)")
  }

  /// `error` (from start-up: opening, loading, or the engine rebuilding a stored scene),
  /// with how to recover from this database when it is damaged.
  public func explained(_ error: StoreError) -> StoreError { Self.explained(error, path: path) }

  /// Adds how to recover to a start-up error.
  static func explained(_ error: StoreError, path: String) -> StoreError {
    switch error.kind {
    case .corrupt:
      let stateDir = StateDirectory.containing(path)
      return StoreError(
        .corrupt,
        "\(error.message). navd will not start on a damaged database. To recover: save what can still be read "
          + "with 'navctl export --state-dir \(stateDir) > navd-backup.json', move the database aside "
          + "('mv \(path) \(path).damaged', and its -wal and -shm files and the navd.redo.* files beside it), then 'navctl import --state-dir \(stateDir) "
          + "navd-backup.json' and start navd again")
    case .tooNew, .full, .io:
      return error
    }
  }
}
