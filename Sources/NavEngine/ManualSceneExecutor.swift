import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A `SceneExecutor` its owner turns by hand, on its own thread: jobs and `later` work wait
/// in order until `runPass()` or `runAll()` runs them, as navd's loop runs what it was posted
/// after each pass; `laterAfterIO` work waits for the next pass, as the loop's does (it runs
/// after what was queued before that pass began, the loop's I/O). Tests use it to decide
/// exactly when a scene's turn comes and when a store's result arrives (no sleeps, no tasks
/// to await); `navbench --engine` to drive the engine in process as the loop does.
public final class ManualSceneExecutor: SceneExecutor {
  private enum Work {
    case job(UnownedJob)
    case closure(@Sendable () -> Void)
  }

  private let queued = Mutex<(now: [Work], nextPass: [Work])>(([], []))
  /// The thread running this executor's work now (0: none).
  private let runner = Atomic<UInt>(0)

  /// An executor with nothing queued.
  public init() {}

  /// Whether the caller is inside `runAll` or `onExecutor`.
  public var isCurrent: Bool {
    let thread = runner.load(ordering: .acquiring)
    return thread != 0 && thread == Self.currentThread
  }

  /// `isCurrent` (SE-0471).
  public func isIsolatingCurrentContext() -> Bool? { isCurrent }

  /// Stops the process off the executor (SE-0424).
  public func checkIsolated() { precondition(isCurrent, "a scene was entered off its manual executor") }

  /// Queues `job` for `runAll`.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queued.withLock { $0.now.append(.job(job)) }
  }

  /// Queues `work` for the current or next pass.
  public func later(_ work: @escaping @Sendable () -> Void) { queued.withLock { $0.now.append(.closure(work)) } }

  /// Queues `work` for the pass after the current one (or the next, between passes).
  public func laterAfterIO(_ work: @escaping @Sendable () -> Void) {
    queued.withLock { $0.nextPass.append(.closure(work)) }
  }

  /// Work waiting for `runPass` or `runAll`, this pass's and the next's.
  public var pendingCount: Int { queued.withLock { $0.now.count + $0.nextPass.count } }

  /// One pass of the loop: the work queued before it, then the `laterAfterIO` work queued
  /// before it, then what those queue with `later`, until nothing is left of it; what they
  /// queue with `laterAfterIO` waits for the next pass.
  public func runPass() {
    onExecutor {
      queued.withLock { queued in
        queued.now.append(contentsOf: queued.nextPass)
        queued.nextPass = []
      }
      while let work = queued.withLock({ $0.now.isEmpty ? nil : $0.now.removeFirst() }) {
        switch work {
        case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
        case .closure(let body): body()
        }
      }
    }
  }

  /// Runs passes until nothing is left.
  public func runAll() {
    repeat { runPass() } while pendingCount > 0
  }

  /// Runs `body` as this executor's work, on the calling thread: a scene may be entered in
  /// it synchronously (what navd's loop does with a call it read).
  public func onExecutor<T>(_ body: () throws -> T) rethrows -> T {
    let outer = runner.exchange(Self.currentThread, ordering: .acquiringAndReleasing)
    defer { runner.store(outer, ordering: .releasing) }
    return try body()
  }

  private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}
