import NavEngine
import Synchronization

/// `--durability normal`: each group is written on the committing scene's own thread (in navd,
/// the event loop), one transaction per group, with no hand-off to another thread.
///
/// A commit without fsync is a WAL append (tens of µs), so it may run where the caller runs;
/// what would make it wait — checkpoints and their fsyncs — runs on the `Checkpointer`'s
/// thread. The connection is used by one thread at a time: a lock serialises commits from
/// scenes on different threads.
final class InlineCommits: Sendable {
  private let writer: Mutex<StoreWriter?>
  private let checkpointer: Checkpointer
  private let committed = Atomic<Int>(0)

  /// Takes over `writer`, whose connection has automatic checkpoints off, and reports its WAL to `checkpointer`.
  init(writer: StoreWriter, checkpointer: Checkpointer) {
    writer.database.reportWALGrowth(to: checkpointer)
    self.writer = Mutex(writer)
    self.checkpointer = checkpointer
  }

  /// Writes the group in one transaction: stored when this returns, nothing stored when it throws.
  func commit(_ records: [CommitRecord]) throws(StoreError) {
    try writer.withLock { writer throws(StoreError) in
      guard let writer else { throw StoreError(.io, "the store is closed (navd is stopping)") }
      try writer.commit(records)
    }
    committed.add(1, ordering: .relaxed)
  }

  /// Transactions committed so far.
  var transactions: Int { committed.load(ordering: .relaxed) }

  /// Checkpoints run so far (PASSIVE; RESTART or TRUNCATE).
  var checkpoints: (passive: Int, reset: Int) { checkpointer.runs }

  /// Stops the checkpoint thread, then closes the writer (SQLite checkpoints and removes the
  /// WAL as its last connection closes). Later commits fail with `.io`.
  func close() {
    checkpointer.close()
    let writer = self.writer.withLock { writer in
      defer { writer = nil }
      return writer
    }
    writer?.database.reportWALGrowth(to: nil)
  }
}
