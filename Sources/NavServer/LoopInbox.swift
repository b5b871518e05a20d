import CNavSys
import Synchronization
import Varlink

/// Work handed to the event-loop thread from any thread (the engine's actors, signal
/// handlers, `VarlinkServer.stop()`).
///
/// Producers append under a `Mutex` and poke the eventfd only when no wake-up is pending
/// yet, so a burst of replies costs one wake. The loop takes the whole batch at once.
final class LoopInbox: Sendable {
  enum Message {
    /// Call `serial` on `connection` ended with `frame` (empty for oneway).
    case replied(connection: UInt64, serial: UInt64, frame: [UInt8])
    /// Call `serial` on `connection` is now served by `source`.
    case streamStarted(connection: UInt64, serial: UInt64, source: any ReplySource)
    /// The source of call `serial` has data; `context` clears its coalescing flag.
    case sourceHasData(connection: UInt64, serial: UInt64, context: ConnectionCallContext)
    /// The frame `connection` handed out for parsing (`ServerLoop.parseOffLoop`) was parsed.
    case parsed(connection: UInt64, result: Result<VarlinkCall, VarlinkProtocolError>)
    /// Disconnect `connection`, logging `reason`.
    case close(connection: UInt64, reason: String)
    /// A task or actor job for the loop to run (`EventLoopExecutor`).
    case run(UnownedJob)
    /// Work for the loop to run (`EventLoopExecutor.later`): a scene's turn, a store's result.
    case perform(@Sendable () -> Void)
    /// Stop the server.
    case stop
    /// Stop the server gracefully: see `VarlinkServer.stopGracefully`.
    case drain(finalReply: [UInt8], timeout: Duration)
    /// Stop and hand connections over: see `VarlinkServer.stopForHandOver`.
    case handOver(finalReply: [UInt8], timeout: Duration, receipt: HandOverReceipt)
  }

  private struct State {
    var messages: [Message] = []
    var wakePending = false
  }

  private let state = Mutex(State())
  /// The eventfd the loop watches. The inbox owns it so that it stays valid for as long
  /// as any context can still post (a closed, reused fd number would get our bytes).
  let wakeFD: Int32
  /// pthread_self() of the loop thread, so posts from the loop itself skip the wake.
  private let loopThread = Atomic<UInt>(0)
  /// Connections whose source signalled on the loop thread itself since the loop last
  /// looked (`signalOnLoop(_:serial:)`): the loop takes them at the start of its next
  /// round, as if they were that round's first `sourceHasData` messages.
  ///
  /// `nonisolated(unsafe)`: only the loop thread touches it (every writer first checks
  /// `isLoopThread`), so it needs no lock.
  @exclusivity(unchecked) nonisolated(unsafe) var signalledOnLoop: [Connection] = []

  /// Work for the loop's next pass (`EventLoopExecutor.laterAfterIO`), posted on the loop
  /// thread: `ServerLoop.run` takes it after that pass's `epoll_wait`. Loop thread only,
  /// as `signalledOnLoop`.
  @exclusivity(unchecked) nonisolated(unsafe) var deferredOnLoop: [@Sendable () -> Void] = []

  init() throws(SystemCallError) {
    wakeFD = try Syscall.blocking("eventfd") { eventfd(0, CNAV_EFD_CLOEXEC | CNAV_EFD_NONBLOCK) }
  }

  deinit { Syscall.close(wakeFD) }

  /// Resets the eventfd counter after a wake-up (loop thread).
  func drainWakeUps() {
    var value: UInt64 = 0
    _ = try? Syscall.call("read(eventfd)") { withUnsafeMutableBytes(of: &value) { read(wakeFD, $0.baseAddress, 8) } }
  }

  /// Called by the loop thread when it starts, and with 0 when it stops (a later thread
  /// may reuse its id).
  func setLoopThread(_ thread: UInt) { loopThread.store(thread, ordering: .releasing) }

  /// Whether the caller is the loop thread.
  var isLoopThread: Bool { currentThreadID() == loopThread.load(ordering: .acquiring) }

  /// Queues `message` and wakes the loop if needed; callable from any thread.
  func post(_ message: Message) {
    let mustWake = state.withLock { state -> Bool in
      state.messages.append(message)
      if state.wakePending { return false }
      state.wakePending = true
      return true
    }
    guard mustWake, currentThreadID() != loopThread.load(ordering: .acquiring) else { return }
    var one: UInt64 = 1
    _ = try? Syscall.call("write(eventfd)") {
      withUnsafeBytes(of: &one) { write(wakeFD, $0.baseAddress, 8) }
    }
  }

  /// Notes that call `serial`'s source on `connection` has data, from the loop thread
  /// itself (the engine runs there: `EventLoopExecutor`): what a `sourceHasData` message
  /// does, without the message, the lock, or a lookup of the connection by id (~400
  /// instructions per subscriber per publish, callgrind). A connection already signalled
  /// is listed once; its latest serial wins, as with messages.
  ///
  /// `consuming`: the caller's reference is the one the list keeps, so a signal costs one
  /// retain, not a retain for the list and a retain and release for the caller's copy
  /// (callgrind, 64 subscribers: `sourceHasData` 131 → 113 instructions per subscriber);
  /// inlined, as the compiler stopped doing once it was consuming (113 → 99).
  @inline(__always) func signalOnLoop(_ connection: consuming Connection, serial: UInt64) {
    assert(isLoopThread, "signalOnLoop(_:serial:) called off the loop thread")
    let listed = connection.signalledSerial != nil
    connection.signalledSerial = serial
    if !listed { signalledOnLoop.append(connection) }
  }

  /// Whether messages or signals are waiting (loop thread, to decide whether to poll or sleep).
  var hasPending: Bool {
    !signalledOnLoop.isEmpty || !deferredOnLoop.isEmpty || state.withLock { !$0.messages.isEmpty }
  }

  /// Moves every queued message into `batch`, which must be empty (loop thread).
  ///
  /// The queue and `batch` swap storage, so a loop that empties `batch` and passes it
  /// again allocates nothing: returning the queue's array and then emptying it in place
  /// allocated a new one each time, several times per call.
  func takeAll(into batch: inout [Message]) {
    assert(batch.isEmpty, "takeAll(into:) would drop the messages already in the batch")
    state.withLock { state in
      state.wakePending = false
      swap(&state.messages, &batch)
    }
  }
}

#if canImport(Glibc)
  import Glibc
  /// pthread_self() as an integer, to compare threads cheaply.
  @inline(__always) func currentThreadID() -> UInt { UInt(pthread_self()) }
#endif
