import NavEngine
import Synchronization

/// A `SceneExecutor` the test turns by hand: jobs and `later` work wait in order until
/// `runAll()` runs them on the test's own thread, so a test decides exactly when a scene's
/// turn comes and when a store's result arrives, with no sleeps and no tasks to await.
final class ManualExecutor: SceneExecutor {
  private enum Work {
    case job(UnownedJob)
    case closure(@Sendable () -> Void)
  }

  private let queued = Mutex<[Work]>([])
  /// The thread running this executor's work now (0: none).
  private let runner = Atomic<UInt>(0)

  var isCurrent: Bool {
    let thread = runner.load(ordering: .acquiring)
    return thread != 0 && thread == UInt(bitPattern: Int(bitPattern: pthread_self()))
  }

  func isIsolatingCurrentContext() -> Bool? { isCurrent }

  func checkIsolated() { precondition(isCurrent, "a scene was entered off the manual executor") }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queued.withLock { $0.append(.job(job)) }
  }

  func later(_ work: @escaping @Sendable () -> Void) { queued.withLock { $0.append(.closure(work)) } }

  /// Work waiting for `runAll`.
  var pendingCount: Int { queued.withLock { $0.count } }

  /// Runs everything queued, and what that queues in turn, until nothing is left.
  func runAll() {
    onExecutor {
      while let work = queued.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
        switch work {
        case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
        case .closure(let body): body()
        }
      }
    }
  }

  /// Runs `body` as this executor's work, on the calling thread: a scene may be entered
  /// in it with `assumeIsolated` (what the event loop does with a call it read).
  func onExecutor<T>(_ body: () throws -> T) rethrows -> T {
    let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
    let outer = runner.exchange(thread, ordering: .acquiringAndReleasing)
    defer { runner.store(outer, ordering: .releasing) }
    return try body()
  }
}

#if canImport(Glibc)
  import Glibc
#endif
