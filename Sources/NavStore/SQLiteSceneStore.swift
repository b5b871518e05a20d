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
  /// The scenes this start moved to a new epoch (empty when it could prove it kept every
  /// acknowledged version): name, old epoch, new epoch.
  public let newEpochs: [(scene: String, from: String, to: String)]
  /// What `load` left out of side tables (damaged remembered mutation ids), one line each.
  public var sideTableProblems: [String] { loadProblems.withLock { $0 } }
  private let loadProblems = Mutex<[String]>([])
  /// Why this start could not prove it kept every acknowledged version (empty when it could).
  public let newEpochReasons: [String]
  private let commits: Commits
  /// What navd's own working files may take (`--disk-budget`, else sized to the file system).
  let diskBudget: DiskBudget
  /// What `navd.run` says about this run; `running` turns false once `close` made every
  /// commit durable.
  private let runRecord: Mutex<RunRecord>

  /// The two ways a group reaches the database.
  private enum Commits {
    case redoLog(RedoLogCommits)
    case storeThread(ThreadedCommits)
  }

  /// Opens (creating or migrating) the database at `path` and checks it (`PRAGMA quick_check`,
  /// `StartupChecks`) before changing any file.
  ///
  /// Throws `.corrupt` for a damaged file or files that disagree, and `.tooNew` for one written
  /// by a newer navd, each with a message that says how to recover.
  /// `syncIntervalMilliseconds` is `--sync-interval`: how often the redo log is fsynced.
  /// `diskBudgetBytes` is `--disk-budget`: what navd's own working files may take
  /// (`DiskBudget`); nil: 32 MiB, or a quarter of the file system when that is smaller.
  public convenience init(
    path: String, durability: Durability = .normal, syncIntervalMilliseconds: Int = 1000, diskBudgetBytes: Int? = nil
  ) throws(StoreError) {
    var limits = RedoLogLimits()
    limits.syncNanoseconds = max(1, syncIntervalMilliseconds) * 1_000_000
    try self.init(path: path, durability: durability, redoLimits: limits, diskBudgetBytes: diskBudgetBytes)
  }

  /// Opens the database; `redoLimits` sizes and paces the redo log, and `bootId` stands for
  /// this boot's (tests make them small, and restart the machine).
  init(
    path: String, durability: Durability, redoLimits: RedoLogLimits, bootId: String? = nil,
    diskBudgetBytes: Int? = nil
  ) throws(StoreError) {
    self.path = path
    self.durability = durability
    let directory = StateDirectory.containing(path)
    let files = RedoLogFiles(databasePath: path)
    let bootId = bootId ?? RunRecord.currentBootId()
    let budget = DiskBudget.resolved(explicit: diskBudgetBytes, directory: directory)
    self.diskBudget = budget
    let database: SQLiteDatabase
    var reasons: [String] = []
    // Every check first, on a read-only connection (closing it writes nothing back): a refusal
    // leaves the directory as navd found it.
    try StartupChecks.refuseOrphans(databasePath: path, files: files)
    do throws(StoreError) {
      let created = try DatabaseCreation.createIfMissing(at: path)
      let found = RunRecord.read(in: directory)
      if let reason = RunRecord.lossReason(
        after: found, created: created, databaseInode: RunRecord.inode(of: path), bootId: bootId)
      {
        reasons.append(reason)
      }
      try Self.check(path: path, files: files, strict: reasons.isEmpty)
      database = try SQLiteDatabase(path: path)
      // The writer waits for a reader (`navctl export`) in the way of a WAL restart in naps of
      // microseconds, not SQLite's busy_timeout sleeps of milliseconds (CSQLite's shim).
      database.useShortBusyWait()
      let mode = try database.texts("PRAGMA journal_mode = WAL").first
      guard mode == "wal" else {
        throw StoreError(.io, "\(path): cannot use WAL mode (journal_mode is \(mode ?? "?"))")
      }
      try database.execute(durability.pragma)
      // Debian builds SQLite with secure_delete on: deleted cells and freed pages are zeroed,
      // ~1,300 instructions per commit. What navd deletes (trimmed log rows, forgotten mutation
      // ids) is older than what the file keeps anyway (STORAGE.md §3, "Bounded size").
      try database.execute("PRAGMA secure_delete = OFF")
      // The WAL within its share of the disk budget: checkpointed past it, and cut back to it
      // at checkpoints (it is reused) so it does not stay large after a burst.
      try database.execute("PRAGMA wal_autocheckpoint = \(max(16, budget.walBytes / 4096))")
      try database.execute("PRAGMA journal_size_limit = \(budget.walBytes)")
      try Schema.migrate(database)
    } catch {
      throw Self.explained(error, path: path)
    }
    do throws(StoreError) {
      let writer = try StoreWriter(database: database)
      let replayed = try RedoReplay.replay(
        into: writer, databasePath: path, files: files, strict: reasons.isEmpty)
      droppedAtStart = replayed.dropped
      if let dropped = replayed.dropped { reasons.append(dropped) }
      newEpochs = reasons.isEmpty ? [] : try writer.startNewEpochs()
      newEpochReasons = newEpochs.isEmpty ? [] : reasons
      // Before anything is acknowledged: from here on, a crash of the machine before a clean
      // stop makes the next start begin new epochs.
      let record = RunRecord(
        databaseInode: RunRecord.inode(of: path), bootId: bootId, durability: durability, running: true)
      try record.write(in: directory)
      runRecord = Mutex(record)
      let disk = DiskSpace(
        directory: directory, budget: budget, reserve: DiskReserve(databasePath: path, bytes: budget.reserveBytes))
      switch durability {
      case .full:
        commits = .storeThread(ThreadedCommits(writer: writer, disk: disk))
      case .normal:
        var limits = redoLimits
        limits.fileBytes = min(limits.fileBytes, budget.redoFileBytes)
        limits.backlogBytes = min(limits.backlogBytes, budget.backlogBytes)
        // At least one byte: a scene with nothing unapplied is never made to wait.
        limits.sceneBacklogBytes = min(limits.sceneBacklogBytes, max(1, limits.backlogBytes / 4))
        // A transaction the reserve can let through on a full disk.
        limits.transactionBytes = min(limits.transactionBytes, max(16 << 10, budget.reserveBytes / 2))
        commits = .redoLog(
          try RedoLogCommits(
            writer: writer, files: files, databasePath: path, nextSequence: replayed.last + 1, limits: limits,
            disk: disk))
      }
    } catch {
      throw Self.explained(error, path: path)
    }
  }

  /// Why the redo log's applier could not lower its priority (`--durability normal`), for a
  /// warning in navd's log; nil when it could, and with `--durability full`.
  public var applierPriorityProblem: String? {
    guard case .redoLog(let commits) = commits else { return nil }
    return commits.priorityProblem
  }

  /// The checks a start makes before it writes anything, on a read-only connection: the file's
  /// structure (`PRAGMA quick_check`), its schema, its versions, and the redo log against it.
  private static func check(path: String, files: RedoLogFiles, strict: Bool) throws(StoreError) {
    // A reader of a WAL database makes its -wal and -shm files when they are missing (empty,
    // and SQLite's index of the WAL): gone again after a refusal, so nothing stays of it.
    let derived: [String] = [path + "-wal", path + "-shm"]
    let made = derived.filter { access($0, F_OK) != 0 }
    do throws(StoreError) {
      try checkOnce(path: path, files: files, strict: strict)
    } catch {
      for file in made { unlink(file) }
      throw error
    }
  }

  private static func checkOnce(path: String, files: RedoLogFiles, strict: Bool) throws(StoreError) {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    let rows = try database.texts("PRAGMA quick_check")
    if rows != ["ok"] {
      let shown = rows.prefix(3).joined(separator: "; ") + (rows.count > 3 ? "; …" : "")
      throw StoreError(.corrupt, "\(path) is damaged: quick_check found \(rows.count) problem(s): \(shown)")
    }
    let schema = Int(try database.integer("PRAGMA user_version"))
    // Before anything writes (even the WAL switch): a newer navd's file stays exactly as it was.
    try Schema.refuseNewer(schema, path: path)
    try StartupChecks.checkVersions(database, schemaVersion: schema)
    if schema >= 4 { _ = try RedoReplay.read(database: database, files: files, strict: strict) }
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
  /// serving). Waits first until the database holds every group committed so far. A snapshot
  /// that breaks a rule is refused (`StoredScene.checkRules`).
  public func load() throws(StoreError) -> [StoredScene] {
    let scenes = try read()
    for scene in scenes { try scene.checkRules(databasePath: path) }
    return scenes
  }

  private func read() throws(StoreError) -> [StoredScene] {
    do throws(StoreError) {
      if case .redoLog(let commits) = commits { try commits.waitUntilApplied() }
      let reader = try SceneReader(database: SQLiteDatabase(path: path, readOnly: true))
      var scenes: [StoredScene] = []
      var problems: [String] = []
      for name in try reader.sceneNames() { scenes.append(try reader.scene(name, problems: &problems)) }
      loadProblems.withLock { $0 = problems }
      return scenes
    } catch {
      throw Self.explained(error, path: path)
    }
  }

  /// Stores a group (`SceneStore.commit`): at once when the redo log takes it; else (the
  /// redo log's backlog is full, or `--durability full`, whose store thread fsyncs) `waiter`
  /// is told once it is durable or failed.
  public func commit(_ records: [CommitRecord], waiter: any StoreWaiter) -> Result<Void, StoreError>? {
    do {
      if try commitAtOnce(records) { return .success(()) }
    } catch {
      return .failure(error)
    }
    switch commits {
    case .redoLog(let commits):
      // Off the scene's executor: the wait is for the applier to make room.
      Task {
        do throws(StoreError) {
          try await commits.commit(records)
          waiter.stored(.success(()))
        } catch {
          waiter.stored(.failure(error))
        }
      }
    case .storeThread(let commits):
      commits.commit(records, waiter: waiter)
    }
    return nil
  }

  /// Stores a group at once when the redo log takes it without waiting: true once stored;
  /// false, with nothing stored, when `commit` would have to wait (a full backlog, or
  /// `--durability full`).
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
    let durable: Bool
    switch commits {
    case .redoLog(let commits): durable = commits.close()
    case .storeThread(let commits):
      commits.close()
      durable = true
    }
    // Only a stop that left nothing unsynced may say so: the next start trusts it across a reboot.
    let stopped = runRecord.withLock { record -> RunRecord? in
      guard durable, record.running else { return nil }
      record.running = false
      return record
    }
    try? stopped?.write(in: StateDirectory.containing(path))
  }

  deinit { close() }

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
