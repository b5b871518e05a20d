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
  /// checkpoint, which holds the write lock while it copies the rest (the writer waits).
  var truncatePages = 4000
}

/// Keeps the WAL bounded without making the committing thread wait for an fsync.
///
/// The writer connection runs with automatic checkpoints off (`wal_autocheckpoint=0`); its
/// WAL hook calls `walGrew(pages:)` after every commit. Past `passivePages` this thread of
/// navd's own, on a second connection, runs a PASSIVE checkpoint: it copies the WAL into the
/// database file and fsyncs it while the writer keeps appending. When that copied every
/// frame, or the WAL still holds more than `truncatePages`, a TRUNCATE checkpoint resets the
/// WAL to zero bytes; it gives up (busy timeout 20 ms) while a reader still needs old frames,
/// and the next commit past the limit asks again.
final class Checkpointer: Sendable {
  private let limits: CheckpointLimits
  private let requested = Atomic<Bool>(false)
  private let closed = Atomic<Bool>(false)
  private let wake = DispatchSemaphore(value: 0)
  private let passiveRuns = Atomic<Int>(0)
  private let truncateRuns = Atomic<Int>(0)
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

  /// Checkpoints run so far: (PASSIVE, TRUNCATE), for tests and statistics.
  var runs: (passive: Int, truncate: Int) {
    (passiveRuns.load(ordering: .relaxed), truncateRuns.load(ordering: .relaxed))
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

  /// One round: PASSIVE, then TRUNCATE when it emptied the WAL or the WAL is past the limit.
  /// A failure (busy, disk full) is left for the next round: the WAL only stays larger meanwhile.
  private func run(on database: SQLiteDatabase) {
    let passive = database.checkpoint(SQLITE_CHECKPOINT_PASSIVE)
    guard passive.code == SQLITE_OK else { return }
    passiveRuns.add(1, ordering: .relaxed)
    guard passive.copied == passive.walFrames || passive.walFrames >= limits.truncatePages else { return }
    if database.checkpoint(SQLITE_CHECKPOINT_TRUNCATE).code == SQLITE_OK {
      truncateRuns.add(1, ordering: .relaxed)
    }
  }
}
