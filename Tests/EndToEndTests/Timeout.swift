import Synchronization

/// An awaited operation did not finish in time.
struct TimedOut: Error, CustomStringConvertible {
  /// What was being waited for.
  var what: String
  /// How long.
  var limit: Duration

  var description: String { "timed out after \(limit) waiting for \(what)" }
}

/// Runs `operation` and returns its result, or throws `TimedOut` once `limit` has passed.
///
/// The limit only stops a hung test. It is generous: in a full run every test shares the
/// cooperative pool's two threads on CI and each resumption queues behind the other tests'
/// tasks, so an operation can take as long as the whole run (measured: 8.5 s at low load,
/// 96 s at load 20).
///
/// The caller gets its answer at the deadline even if the operation ignores cancellation:
/// the operation runs in its own task, which is cancelled (and left to wind down) on timeout.
func withTimeout<T: Sendable>(
  _ limit: Duration = .seconds(300), _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  let race = Race<T>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      race.start(continuation, limit: limit, what: what, operation)
    }
  } onCancel: {
    race.cancel()
  }
}

/// The shared state of one `withTimeout`: whoever finishes first resumes the caller.
private final class Race<T: Sendable>: Sendable {
  private let waiter = Mutex<CheckedContinuation<T, any Error>?>(nil)
  private let tasks = Mutex<(timer: Task<Void, Never>?, work: Task<Void, Never>?, cancelled: Bool)>((nil, nil, false))

  func start(
    _ continuation: CheckedContinuation<T, any Error>, limit: Duration, what: String,
    _ operation: @escaping @Sendable () async throws -> T
  ) {
    waiter.withLock { $0 = continuation }
    let timer = Task {
      try? await Task.sleep(for: limit)
      let error: any Error = Task.isCancelled ? CancellationError() : TimedOut(what: what, limit: limit)
      self.finish(.failure(error))
    }
    let work = Task {
      let result: Result<T, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      self.finish(result)
    }
    let cancelled = tasks.withLock { tasks in
      tasks.timer = timer
      tasks.work = work
      return tasks.cancelled
    }
    // Finished (or cancelled) before the tasks were recorded: cancel them now.
    if cancelled || waiter.withLock({ $0 == nil }) { cancel() }
  }

  /// Resumes the caller with the first result to arrive and cancels both tasks.
  private func finish(_ result: Result<T, any Error>) {
    guard let continuation = waiter.withLock({ $0.take() }) else { return }
    continuation.resume(with: result)
    cancel()
  }

  /// Cancels both tasks (the caller's task was cancelled, or the race is decided).
  func cancel() {
    let (timer, work) = tasks.withLock { tasks in
      tasks.cancelled = true
      return (tasks.timer, tasks.work)
    }
    timer?.cancel()
    work?.cancel()
  }
}

/// Pulls elements from one iteration of an async sequence, each pull bounded in time.
///
/// The iterator lives in this actor, so a subscription stays open between pulls and ends when
/// the reader is released. The streams under test are pull-based: nothing is read (and no
/// reconnection happens) until `next` is called.
actor StreamReader<Sequence: AsyncSequence & Sendable> where Sequence.Element: Sendable {
  private var iterator: Sequence.AsyncIterator
  private let name: String

  /// Starts iterating `sequence`; `name` appears in timeout messages.
  init(_ sequence: Sequence, name: String) {
    iterator = sequence.makeAsyncIterator()
    self.name = name
  }

  private func pull() async throws -> Sequence.Element? {
    // An actor cannot hold `inout` access to its property across a suspension; the
    // iterators under test keep their state in an actor, so a copy advances the same stream.
    var current = iterator
    defer { iterator = current }
    return try await current.next(isolation: self)
  }

  /// The next element within `limit`; throws `TimedOut`, or `StreamEnded` when the sequence finished.
  func next(within limit: Duration = .seconds(300)) async throws -> Sequence.Element {
    let element = try await withTimeout(limit, "the next element of \(name)") { try await self.pull() }
    guard let element else { throw StreamEnded(name: name) }
    return element
  }
}

/// A stream finished where the test expected another element.
struct StreamEnded: Error, CustomStringConvertible {
  var name: String
  var description: String { "\(name) ended unexpectedly" }
}
