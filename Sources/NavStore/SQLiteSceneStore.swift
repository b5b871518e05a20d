import NavEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// navd's durable store: one SQLite database in WAL mode.
///
/// Each group the engine commits is one transaction: all of it is stored when `commit`
/// returns, none of it when it throws, and the next one starts clean (a full disk heals
/// once space returns). How it is written depends on `durability`:
/// - `.normal`: inline, on the caller's thread (no fsync at commit); checkpoints run on a
///   thread of their own (`InlineCommits`, `Checkpointer`).
/// - `.full`: by a store thread that fsyncs, with group commit across scenes (`ThreadedCommits`).
public final class SQLiteSceneStore: SceneStore {
  /// The database file's name inside the state directory.
  public static let fileName = "navd.db"

  /// The database file.
  public let path: String
  /// How hard each commit works to reach the disk (`--durability`).
  public let durability: Durability
  private let commits: Commits

  /// The two ways a group reaches the database.
  private enum Commits {
    case inline(InlineCommits)
    case storeThread(ThreadedCommits)
  }

  /// Opens (creating or migrating) the database at `path` and checks it (`PRAGMA quick_check`).
  ///
  /// Throws `.corrupt` for a damaged file and `.tooNew` for one written by a newer navd,
  /// each with a message that says how to recover.
  public convenience init(path: String, durability: Durability = .normal) throws(StoreError) {
    try self.init(path: path, durability: durability, checkpoints: CheckpointLimits())
  }

  /// Opens the database; `checkpoints` sets when the inline path's WAL is checkpointed (tests make it small).
  init(path: String, durability: Durability, checkpoints: CheckpointLimits) throws(StoreError) {
    self.path = path
    self.durability = durability
    let database: SQLiteDatabase
    do throws(StoreError) {
      try DatabaseCreation.createIfMissing(at: path)
      database = try SQLiteDatabase(path: path)
      // The writer waits for the checkpoint thread's short holds of the write lock in naps of
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
      switch durability {
      case .full:
        commits = .storeThread(ThreadedCommits(writer: writer))
      case .normal:
        // Checkpoints (and their fsyncs) move to the checkpoint thread; the writer never runs one.
        try database.execute("PRAGMA wal_autocheckpoint = 0")
        let checkpointer = try Checkpointer(path: path, limits: checkpoints)
        commits = .inline(InlineCommits(writer: writer, checkpointer: checkpointer))
      }
    } catch {
      throw Self.explained(error, path: path)
    }
  }

  /// Transactions committed since the store opened (each holds every group queued when it began).
  public var transactions: Int {
    switch commits {
    case .inline(let commits): commits.transactions
    case .storeThread(let commits): commits.transactions
    }
  }

  /// Groups waiting for the store thread, and groups it has taken (always none inline).
  var groupCounts: (pending: Int, taken: Int) {
    switch commits {
    case .inline: (0, 0)
    case .storeThread(let commits): commits.groupCounts
    }
  }

  /// Checkpoints the inline path's checkpoint thread ran (PASSIVE; RESTART or TRUNCATE); none with `.full`.
  var checkpoints: (passive: Int, reset: Int) {
    switch commits {
    case .inline(let commits): commits.checkpoints
    case .storeThread: (0, 0)
    }
  }

  /// Every stored scene, read on a connection of its own (the caller's thread: start-up, before serving).
  public func load() throws(StoreError) -> [StoredScene] {
    do throws(StoreError) {
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
    case .inline(let commits): try commits.commit(records)
    case .storeThread(let commits): try await commits.commit(records)
    }
  }

  /// Finishes the queued commits, stops the store's threads and closes the database (checkpointing the WAL).
  /// Later commits fail with `.io`.
  public func close() {
    switch commits {
    case .inline(let commits): commits.close()
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
      let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
      let stateDir = directory.isEmpty ? "." : directory
      return StoreError(
        .corrupt,
        "\(error.message). navd will not start on a damaged database. To recover: save what can still be read "
          + "with 'navctl export --state-dir \(stateDir) > navd-backup.json', move the database aside "
          + "('mv \(path) \(path).damaged', and its -wal and -shm files), then 'navctl import --state-dir \(stateDir) "
          + "navd-backup.json' and start navd again")
    case .tooNew, .full, .io:
      return error
    }
  }
}
