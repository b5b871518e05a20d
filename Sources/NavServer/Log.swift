import Dispatch
import NavSystem
import Synchronization

/// navd's logger: cheap to call from any thread (including the event loop), never blocks.
///
/// Records go into a bounded in-memory queue that a dedicated writer thread drains
/// into the `LogSink`. When the queue is full new records are dropped and counted, and
/// the count is reported once the writer catches up (journald's policy: never block
/// the producer, say what was lost).
public final class Log: Sendable {
  /// Records below this level are discarded at the call site; `setMinimumLevel` changes it
  /// (a configuration reload).
  public var minimumLevel: LogLevel { LogLevel(rawValue: level.load(ordering: .relaxed)) ?? .info }
  private let level: Atomic<Int>
  private let sink: any LogSink
  private let capacity: Int
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)

  private struct State {
    var queue: [LogRecord] = []
    var dropped = 0
    var flushWaiters: [DispatchSemaphore] = []
    var writerStarted = false
  }

  /// Creates a log writing to `sink` (stderr by default), holding at most `capacity` unwritten records.
  public init(minimumLevel: LogLevel = .info, sink: any LogSink = StderrLogSink(), capacity: Int = 10_000) {
    self.level = Atomic(minimumLevel.rawValue)
    self.sink = sink
    self.capacity = capacity
  }

  /// Keeps records at `newLevel` and above from now on; callable from any thread.
  public func setMinimumLevel(_ newLevel: LogLevel) { level.store(newLevel.rawValue, ordering: .relaxed) }

  /// Whether a record at `level` would be kept; check before building an expensive message.
  public func isEnabled(_ level: LogLevel) -> Bool { level >= minimumLevel }

  /// Queues a record; returns at once.
  public func log(
    _ level: LogLevel, _ message: @autoclosure () -> String, _ fields: [(key: String, value: String)] = []
  ) {
    guard isEnabled(level) else { return }
    let record = LogRecord(level: level, message: message(), fields: fields)
    let startWriter = state.withLock { state -> Bool in
      if state.queue.count >= capacity {
        state.dropped += 1
        return false
      }
      state.queue.append(record)
      defer { state.writerStarted = true }
      return !state.writerStarted
    }
    if startWriter { startWriterThread() }
    wake.signal()
  }

  /// Logs at debug level.
  public func debug(_ message: @autoclosure () -> String, _ fields: [(key: String, value: String)] = []) {
    log(.debug, message(), fields)
  }
  /// Logs at info level.
  public func info(_ message: @autoclosure () -> String, _ fields: [(key: String, value: String)] = []) {
    log(.info, message(), fields)
  }
  /// Logs at notice level.
  public func notice(_ message: @autoclosure () -> String, _ fields: [(key: String, value: String)] = []) {
    log(.notice, message(), fields)
  }
  /// Logs at warning level.
  public func warning(_ message: @autoclosure () -> String, _ fields: [(key: String, value: String)] = []) {
    log(.warning, message(), fields)
  }
  /// Logs at error level.
  public func error(_ message: @autoclosure () -> String, _ fields: [(key: String, value: String)] = []) {
    log(.error, message(), fields)
  }

  /// Blocks until every record queued before the call has been written and the sink flushed.
  /// Call at shutdown, from a thread that may block (not the cooperative pool).
  public func flush() {
    let done = DispatchSemaphore(value: 0)
    let needsWriter = state.withLock { state -> Bool in
      state.flushWaiters.append(done)
      defer { state.writerStarted = true }
      return !state.writerStarted
    }
    if needsWriter { startWriterThread() }
    wake.signal()
    done.wait()
  }

  private func startWriterThread() {
    _ = OwnThread(name: "navd-log") { [self] in writerLoop() }
  }

  /// The writer thread: sleeps on the semaphore, drains the queue, writes outside the lock.
  private func writerLoop() {
    while true {
      wake.wait()
      let (records, dropped, waiters) = state.withLock { state in
        defer {
          state.queue.removeAll(keepingCapacity: true)
          state.dropped = 0
          state.flushWaiters.removeAll()
        }
        return (state.queue, state.dropped, state.flushWaiters)
      }
      for record in records { sink.write(record) }
      if dropped > 0 {
        sink.write(LogRecord(level: .warning, message: "log queue full: dropped \(dropped) messages"))
      }
      if !waiters.isEmpty {
        sink.flush()
        for waiter in waiters { waiter.signal() }
      }
    }
  }
}
