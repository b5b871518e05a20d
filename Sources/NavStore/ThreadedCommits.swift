import NavEngine
import NavSystem
import Synchronization

/// `--durability full`: commits are written by a store thread of navd's own, because each
/// one fsyncs and an fsync must never run on the event loop or the cooperative pool.
///
/// `commit` queues the group and returns; the store thread takes every group queued
/// meanwhile, from every scene, writes them in one transaction (group commit) and then
/// tells each scene (its `StoreWaiter`). A failed transaction fails all of them and stores none; the
/// next one starts clean, so a full disk heals once space returns.
final class ThreadedCommits: Sendable {
  private let queue = CommitQueue()
  private let thread: Mutex<OwnThread?>

  /// Hands `writer` to a new store thread; `disk` keeps the WAL within its budget.
  init(writer: StoreWriter, disk: DiskSpace? = nil) {
    let queue = self.queue
    thread = Mutex(
      OwnThread(name: "navd-store") {
        while let jobs = queue.takeAll() {
          let rows = jobs.flatMap(\.records).map(StoreRow.init)
          var result: Result<Void, StoreError> = Self.commit(rows, writer)
          // A full disk: give up the reserve and cut the WAL back, then try once more at once.
          if case .failure(let error) = result, error.kind == .full, let disk, disk.relieve(writer) {
            result = Self.commit(rows, writer)
          }
          if case .success = result {
            queue.noteTransaction()
            disk?.keepWithinBudget(writer)
          }
          for job in jobs { job.waiter(result) }
        }
      })
  }

  private static func commit(_ rows: [StoreRow], _ writer: StoreWriter) -> Result<Void, StoreError> {
    do throws(StoreError) {
      try writer.commit(rows)
      return .success(())
    } catch {
      return .failure(error)
    }
  }

  /// Queues a group for the store thread, which tells `waiter` once it committed it, or
  /// failed and stored nothing.
  func commit(_ records: [CommitRecord], waiter: any StoreWaiter) {
    queue.enqueue(CommitQueue.Job(records: records, waiter: { waiter.stored($0) }))
  }

  /// Transactions committed so far.
  var transactions: Int { queue.transactions }

  /// Groups waiting for the store thread, and groups it has taken.
  var groupCounts: (pending: Int, taken: Int) { queue.counts }

  /// Finishes the queued commits and stops the store thread (which closes the writer).
  func close() {
    queue.close()
    let thread = self.thread.withLock { thread in
      defer { thread = nil }
      return thread
    }
    thread?.join()
  }
}
