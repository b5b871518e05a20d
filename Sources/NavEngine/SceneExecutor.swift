import Dispatch

/// The serial executor (SE-0392) every scene of an engine runs on: each `SceneEngine` is an
/// actor whose `unownedExecutor` is this one, so its state is isolated behind one serial
/// order of work.
///
/// navd's is its event loop (`EventLoopExecutor`): a call read on the loop thread finds
/// `isCurrent` true and enters its scene synchronously (`assumeIsolated`), with no task, no
/// mailbox and no continuation. Tests and tools without a loop get `QueueSceneExecutor`.
///
/// `assumeIsolated` asks the executor through `isIsolatingCurrentContext` (SE-0471) and
/// `checkIsolated` (SE-0424): each executor answers both with `isCurrent`, in the module
/// that declares its `SerialExecutor` conformance (the runtime uses that module's witnesses).
public protocol SceneExecutor: SerialExecutor {
  /// Whether the calling thread is running this executor's work now, so that it may enter a
  /// scene synchronously.
  var isCurrent: Bool { get }
  /// Runs `work` on this executor after everything already queued on it: a later turn of
  /// the loop, in the order asked for.
  func later(_ work: @escaping @Sendable () -> Void)
  /// Runs `work` on this executor once it has served the other work ready by then: navd's
  /// loop runs it in its next pass, after `epoll_wait` and that pass's first messages, so a
  /// scene that yields between two large groups lets the loop answer other connections.
  func laterAfterIO(_ work: @escaping @Sendable () -> Void)
}

/// A `SceneExecutor` for an engine without an event loop (tests, `navbench --engine`,
/// tools): jobs run one at a time, in the order they were enqueued, on a serial dispatch
/// queue of its own.
public final class QueueSceneExecutor: SceneExecutor {
  /// What the queue carries under `key`, to recognise it (`isCurrent`).
  private final class Marker: Sendable {}
  private static let key = DispatchSpecificKey<Marker>()
  private let marker = Marker()
  private let queue: DispatchQueue

  /// A new executor with a queue of its own.
  public init() {
    queue = DispatchQueue(label: "navd.scenes")
    queue.setSpecific(key: Self.key, value: marker)
  }

  /// Whether the caller runs on this executor's queue.
  public var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) === marker }

  /// `isCurrent` (SE-0471).
  public func isIsolatingCurrentContext() -> Bool? { isCurrent }

  /// Stops the process off the queue (SE-0424).
  public func checkIsolated() { precondition(isCurrent, "a scene was entered off its executor's queue") }

  /// Runs `job` on the queue, after the jobs enqueued before it.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  /// Runs `work` on the queue, after the work enqueued before it.
  public func later(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

  /// `later`: the queue serves no I/O of its own that `work` could let in first.
  public func laterAfterIO(_ work: @escaping @Sendable () -> Void) { later(work) }
}
