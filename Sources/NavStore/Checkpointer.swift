import CSQLite
import Dispatch
import NavEngine
import NavSystem
import Synchronization

/// When the WAL is checkpointed (inline commits, `--durability normal`).
struct CheckpointLimits: Sendable {
  /// A PASSIVE checkpoint starts once the WAL holds this many pages (SQLite's own default, ~4 MiB).
  var passivePages = 1000
  /// Past this many pages (~16 MiB) the WAL is reset even if writes keep coming: a TRUNCATE
  /// checkpoint, which holds the write lock while it copies the rest and cuts the file to
  /// zero bytes (the writer waits, milliseconds).
  var truncatePages = 4000
}

/// Keeps the WAL bounded without making the committing thread wait for an fsync.
///
/// The writer connection runs with automatic checkpoints off (`wal_autocheckpoint=0`); its
/// WAL hook calls `walGrew(pages:)` after every commit. Past `passivePages` this thread of
/// navd's own, on a second connection, runs a PASSIVE checkpoint: it copies the WAL into the
/// database file and fsyncs it while the writer keeps appending. When that copied every
/// frame, a RESTART checkpoint makes sure no reader still needs the WAL, so the next commit
/// writes it again from its beginning (the file is reused, never longer than
/// `journal_size_limit`); it holds the write lock for microseconds. Only when the WAL still
/// holds more than `truncatePages` (writes never let the PASSIVE catch up) does a TRUNCATE
/// checkpoint copy the rest and cut the file to zero bytes, which holds the lock for
/// milliseconds: at every WAL cycle it used to make the writer, on the event loop, wait
/// ~3-5 ms (the writer's ack p99 in `bench/compare.sh`'s fan-out). Either gives up (busy
/// timeout 20 ms) while a reader still needs old frames, and the next commit past the limit
/// asks again.
final class Checkpointer: Sendable {
  private let limits: CheckpointLimits
  private let requested = Atomic<Bool>(false)
  private let closed = Atomic<Bool>(false)
  private let wake = DispatchSemaphore(value: 0)
  private let passiveRuns = Atomic<Int>(0)
  private let resetRuns = Atomic<Int>(0)
  private let thread: Mutex<OwnThread?> = Mutex(nil)

  /// Opens a second connection to `path` and starts the checkpoint thread.
  init(path: String, limits: CheckpointLimits) throws(StoreError) {
    self.limits = limits
    final class Connection: @unchecked Sendable {
      // Made here, then used and closed only by the checkpoint thread.
      var database: SQLiteDatabase?
      init(_ database: SQLiteDatabase) { self.database = database }
    }
    let database = try SQLiteDatabase(path: path)
    try database.execute("PRAGMA busy_timeout = 20")
    // A connection opens the WAL at its first read; until then a checkpoint does nothing.
    _ = try database.integer("SELECT count(*) FROM sqlite_schema")
    let connection = Connection(database)
    thread.withLock { [self] thread in
      thread = OwnThread(name: "navd-checkpoint") { [self] in
        while let database = connection.database, waitForRequest() {
          run(on: database)
        }
        connection.database = nil
      }
    }
  }

  /// Called on the writer's thread after each commit with the WAL's size in pages.
  func walGrew(pages: Int) {
    guard pages >= limits.passivePages else { return }
    if requested.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
      wake.signal()
    }
  }

  /// Checkpoints run so far: (PASSIVE, RESTART or TRUNCATE), for tests and statistics.
  var runs: (passive: Int, reset: Int) {
    (passiveRuns.load(ordering: .relaxed), resetRuns.load(ordering: .relaxed))
  }

  /// Stops the thread (after the checkpoint under way) and closes its connection.
  func close() {
    closed.store(true, ordering: .releasing)
    wake.signal()
    let thread = self.thread.withLock { thread in
      defer { thread = nil }
      return thread
    }
    thread?.join()
  }

  /// Waits for a request; false once closed.
  private func waitForRequest() -> Bool {
    wake.wait()
    requested.store(false, ordering: .releasing)
    return !closed.load(ordering: .acquiring)
  }

  /// One round: PASSIVE, then RESTART when it copied the whole WAL, or TRUNCATE when the WAL
  /// is past the limit. A failure (busy, disk full) is left for the next round: the WAL only
  /// stays larger meanwhile.
  private func run(on database: SQLiteDatabase) {
    let passive = database.checkpoint(SQLITE_CHECKPOINT_PASSIVE)
    guard passive.code == SQLITE_OK else { return }
    passiveRuns.add(1, ordering: .relaxed)
    guard let reset = Self.reset(walFrames: passive.walFrames, copied: passive.copied, limits: limits) else { return }
    if database.checkpoint(reset).code == SQLITE_OK {
      resetRuns.add(1, ordering: .relaxed)
    }
  }

  /// The checkpoint that follows a PASSIVE one which found `walFrames` frames and copied
  /// `copied`: TRUNCATE past `truncatePages`, RESTART when it copied them all, else none.
  static func reset(walFrames: Int, copied: Int, limits: CheckpointLimits) -> Int32? {
    if walFrames >= limits.truncatePages { return SQLITE_CHECKPOINT_TRUNCATE }
    if copied == walFrames { return SQLITE_CHECKPOINT_RESTART }
    return nil
  }
}
