import Dispatch
import Synchronization

/// The server's event-loop thread as an executor: the task executor (SE-0417) io.navd's
/// calls prefer and the serial executor (SE-0392) every scene actor runs on.
///
/// A call read on the loop thread therefore reaches its scene synchronously (`isCurrent`
/// is true there, so the scene's `assumeIsolated` holds): no hand-off to Swift's
/// cooperative pool and back, which on a 2-core machine costs more than the whole socket
/// round trip, and no task per call. Jobs and `later` work posted from other threads go
/// through the loop's inbox and run in the order posted. Before the loop runs and after it
/// stops, they run on a serial queue of the executor's own instead, so no job is stranded
/// and the scenes stay serial; the loop waits for that queue to go idle before it takes
/// over.
public final class EventLoopExecutor: TaskExecutor, SerialExecutor {
  private let inbox = Mutex<LoopInbox?>(nil)
  /// pthread_self() of the loop thread while it runs this executor's work; 0 otherwise.
  private let loopThread = Atomic<UInt>(0)
  private let fallback = DispatchQueue(label: "navd.loop-executor")
  /// What `fallback` carries under `key`, to recognise it.
  private final class Marker: Sendable {}
  private static let key = DispatchSpecificKey<Marker>()
  private let marker = Marker()

  /// An executor that runs jobs on its own queue until a server's loop attaches it.
  public init() { fallback.setSpecific(key: Self.key, value: marker) }

  func attach(_ inbox: LoopInbox) { self.inbox.withLock { $0 = inbox } }

  /// The loop thread starts running this executor's work: first every job still on the
  /// fallback queue finishes, so two never run at once.
  func loopStarted() {
    fallback.sync {}
    loopThread.store(currentThreadID(), ordering: .releasing)
  }

  func detach() {
    loopThread.store(0, ordering: .releasing)
    inbox.withLock { $0 = nil }
  }

  /// Whether the caller runs this executor's work now: on the loop thread while the loop
  /// runs, or on the fallback queue.
  public var isCurrent: Bool {
    let loop = loopThread.load(ordering: .acquiring)
    if loop != 0 { return loop == currentThreadID() }
    return DispatchQueue.getSpecific(key: Self.key) === marker
  }

  /// `isCurrent` (SE-0471): what `assumeIsolated` asks.
  public func isIsolatingCurrentContext() -> Bool? { isCurrent }

  /// Stops the process when the caller is not on this executor (SE-0424).
  public func checkIsolated() { precondition(isCurrent, "entered the event loop's isolation off its thread") }

  /// Whether the caller runs on the event-loop thread (tests, assertions).
  var isOnLoopThread: Bool { inbox.withLock { $0 }?.isLoopThread ?? false }

  /// Runs `job` on the event-loop thread (or, before the loop runs and once it has stopped,
  /// on the fallback queue).
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if let inbox = inbox.withLock({ $0 }) {
      inbox.post(.run(job))
    } else {
      runLater(job)
    }
  }

  /// Runs `work` on the event-loop thread after what is already posted to it (or on the
  /// fallback queue, as `enqueue` does).
  public func later(_ work: @escaping @Sendable () -> Void) {
    if let inbox = inbox.withLock({ $0 }) {
      inbox.post(.perform(work))
    } else {
      fallback.async(execute: work)
    }
  }

  /// Runs `work` on the event-loop thread in its next pass, after that pass's `epoll_wait`
  /// and first messages, so the sockets ready by then are served first: `later` work posted
  /// on the loop runs in the same pass, before the loop looks at a socket again. Posted off
  /// the loop thread (or while the loop is not running) it is `later` work: it reaches the
  /// loop through its inbox after a wake-up anyway.
  public func laterAfterIO(_ work: @escaping @Sendable () -> Void) {
    if let inbox = inbox.withLock({ $0 }), inbox.isLoopThread {
      inbox.deferredOnLoop.append(work)
    } else {
      later(work)
    }
  }

  /// Runs `job` here, isolated to this executor: on the loop, a task job and a scene's job alike.
  func run(_ job: UnownedJob) {
    job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
  }

  /// `job` on the fallback queue (the loop is not running).
  func runLater(_ job: UnownedJob) { fallback.async { self.run(job) } }

  /// `work` on the fallback queue (the loop is not running).
  func performLater(_ work: @escaping @Sendable () -> Void) { fallback.async(execute: work) }
}
