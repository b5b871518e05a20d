import Dispatch
import NavEngine
import Synchronization

/// Commits waiting for the store thread, from every scene.
///
/// Scenes enqueue and go on; the store thread takes everything queued at once
/// and commits it as one transaction (group commit), then tells each waiter.
final class CommitQueue: Sendable {
  /// Told the job's result, once, on the store thread.
  typealias Waiter = @Sendable (Result<Void, StoreError>) -> Void

  /// One scene's group and the scene waiting for it to be durable.
  struct Job: Sendable {
    var records: [CommitRecord]
    var waiter: Waiter
  }

  private struct State {
    var jobs: [Job] = []
    var closed = false
    var taken = 0
  }

  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let committed = Atomic<Int>(0)

  /// Queues a job, or answers it at once with an error when the store is closed.
  func enqueue(_ job: Job) {
    let accepted = state.withLock { state in
      guard !state.closed else { return false }
      state.jobs.append(job)
      return true
    }
    if accepted {
      wake.signal()
    } else {
      job.waiter(.failure(StoreError(.io, "the store is closed (navd is stopping)")))
    }
  }

  /// Blocks until jobs are queued and takes all of them; nil once closed and drained.
  func takeAll() -> [Job]? {
    while true {
      wake.wait()
      let (jobs, closed) = state.withLock { state in
        defer {
          state.taken += state.jobs.count
          state.jobs = []
        }
        return (state.jobs, state.closed)
      }
      if !jobs.isEmpty { return jobs }
      if closed { return nil }
    }
  }

  /// Counts a committed transaction.
  func noteTransaction() { committed.add(1, ordering: .relaxed) }

  /// Transactions committed so far.
  var transactions: Int { committed.load(ordering: .relaxed) }

  /// Jobs waiting for the store thread, and jobs it has taken (for tests and statistics).
  var counts: (pending: Int, taken: Int) { state.withLock { ($0.jobs.count, $0.taken) } }

  /// Refuses further jobs; `takeAll` returns what is queued, then nil.
  func close() {
    state.withLock { $0.closed = true }
    wake.signal()
  }
}
