import Synchronization

/// Runs tasks on the server's event-loop thread (a Swift task executor, SE-0417).
///
/// The io.navd service starts each call's task with this executor as its
/// preference, so the call, the scene actor it awaits, and the reply all run
/// on the thread that read the call: no hand-off to Swift's cooperative pool
/// and back, which on a 2-core machine costs more than the whole socket round
/// trip. The engine still never blocks (it has no blocking work), so the loop
/// keeps serving sockets between jobs. Before the loop runs and after it
/// stops, jobs go to the global concurrent executor, so no task is stranded.
public final class EventLoopExecutor: TaskExecutor {
  private let inbox = Mutex<LoopInbox?>(nil)

  /// An executor that runs jobs elsewhere until a server's loop attaches it.
  public init() {}

  func attach(_ inbox: LoopInbox) { self.inbox.withLock { $0 = inbox } }

  func detach() { inbox.withLock { $0 = nil } }

  /// Whether the caller runs on the event-loop thread (tests, assertions).
  var isOnLoopThread: Bool { inbox.withLock { $0 }?.isLoopThread ?? false }

  /// Runs `job` on the event-loop thread (or, once the loop has stopped, on the global executor).
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if let inbox = inbox.withLock({ $0 }) {
      inbox.post(.run(job))
    } else {
      globalConcurrentExecutor.enqueue(job)
    }
  }
}
