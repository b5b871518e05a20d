import NavEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// navd's durable store: one SQLite database in WAL mode, written by a store thread
/// of its own (never the cooperative pool, never the event loop).
///
/// `commit` queues the group and suspends the scene; the store thread takes every
/// group queued meanwhile, from every scene, writes them in one transaction (group
/// commit) and then resumes each scene. A failed transaction fails all of them and
/// stores none; the next one starts clean, so a full disk heals once space returns.
public final class SQLiteSceneStore: SceneStore {
  /// The database file's name inside the state directory.
  public static let fileName = "navd.db"

  /// The database file.
  public let path: String
  /// How hard each commit works to reach the disk (`--durability`).
  public let durability: Durability
  private let queue = CommitQueue()
  private let thread: Mutex<StoreThread?>

  /// Opens (creating or migrating) the database at `path` and checks it (`PRAGMA quick_check`).
  ///
  /// Throws `.corrupt` for a damaged file and `.tooNew` for one written by a newer navd,
  /// each with a message that says how to recover.
  public init(path: String, durability: Durability = .full) throws(StoreError) {
    self.path = path
    self.durability = durability
    let database: SQLiteDatabase
    do throws(StoreError) {
      // Created private (0600; SQLite gives its -wal and -shm files the same mode), whatever the umask.
      let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if fd >= 0 { Glibc.close(fd) }
      database = try SQLiteDatabase(path: path)
      try database.execute("PRAGMA busy_timeout = 5000")
      try Self.check(database)
      // Before anything writes (even the WAL switch): a newer navd's file stays exactly as it was.
      try Schema.refuseNewer(Int(try database.integer("PRAGMA user_version")), path: path)
      let mode = try database.texts("PRAGMA journal_mode = WAL").first
      guard mode == "wal" else {
        throw StoreError(.io, "\(path): cannot use WAL mode (journal_mode is \(mode ?? "?"))")
      }
      try database.execute(durability.pragma)
      // Keeps the WAL file from staying large after a burst (it is reused, and truncated to this, at checkpoints).
      try database.execute("PRAGMA journal_size_limit = 4194304")
      try Schema.migrate(database)
    } catch {
      throw Self.explained(error, path: path)
    }
    let writer: StoreWriter
    do throws(StoreError) { writer = try StoreWriter(database: database) } catch {
      throw Self.explained(error, path: path)
    }
    let queue = self.queue
    thread = Mutex(
      StoreThread(name: "navd-store") {
        while let jobs = queue.takeAll() {
          let result: Result<Void, StoreError>
          do throws(StoreError) {
            try writer.commit(jobs.flatMap(\.records))
            queue.noteTransaction()
            result = .success(())
          } catch {
            result = .failure(error)
          }
          for job in jobs { job.waiter.resume(returning: result) }
        }
      })
  }

  /// Transactions committed since the store opened (each holds every group queued when it began).
  public var transactions: Int { queue.transactions }

  /// Groups waiting for the store thread, and groups it has taken.
  var groupCounts: (pending: Int, taken: Int) { queue.counts }

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
    let result = await withCheckedContinuation { (waiter: CommitQueue.Waiter) in
      queue.enqueue(CommitQueue.Job(records: records, waiter: waiter))
    }
    try result.get()
  }

  /// Finishes the queued commits, stops the store thread and closes the database (checkpointing the WAL).
  /// Later commits fail with `.io`.
  public func close() {
    queue.close()
    let thread = self.thread.withLock { thread in
      defer { thread = nil }
      return thread
    }
    thread?.join()
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
