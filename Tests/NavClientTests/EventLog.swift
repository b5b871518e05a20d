import Synchronization

/// Events a fake publishes, which tests await instead of sleeping.
final class EventLog<Event: Sendable>: Sendable {
  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  private struct Waiter {
    var predicate: @Sendable ([Event]) -> Bool
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var events: [Event] = []
    var waiters: [UInt64: Waiter] = [:]
    var nextID: UInt64 = 0
  }

  private let state = Mutex(State())

  var all: [Event] { state.withLock { $0.events } }

  func append(_ event: Event) {
    let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
      state.events.append(event)
      var ready: [CheckedContinuation<Void, any Error>] = []
      for (id, waiter) in state.waiters where waiter.predicate(state.events) {
        ready.append(waiter.continuation)
        state.waiters[id] = nil
      }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  /// Returns once `predicate` holds for the events so far; throws after `timeout` (an upper
  /// bound on waiting, generous because the whole suite shares two pool threads on CI).
  func wait(
    _ what: String, timeout: Duration = .seconds(300), until predicate: @escaping @Sendable ([Event]) -> Bool
  ) async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let done = state.withLock { state -> Bool in
        if predicate(state.events) { return true }
        state.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
        return false
      }
      if done { return continuation.resume() }
      Task {
        try? await Task.sleep(for: timeout)
        let expired = self.state.withLock { $0.waiters.removeValue(forKey: id) }
        expired?.continuation.resume(throwing: Timeout(description: "timed out waiting for \(what)"))
      }
    }
  }
}

/// Runs `body`, failing if it takes longer than `limit` (the body is cancelled then).
///
/// The limit only stops a hung test: swift-testing runs every test of the package at once on
/// the cooperative pool (two threads on a 2-core CI machine) and each resumption queues behind
/// the other tests' tasks, so a body that takes 0.1 s alone can take as long as the whole run
/// (measured: 8.5 s at low load, 96 s at load 20). Never use it to measure speed.
@discardableResult
func within<T: Sendable>(
  _ limit: Duration = .seconds(300), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: limit)
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let value = first else {
      throw EventLog<Int>.Timeout(description: "test took longer than \(limit)")
    }
    return value
  }
}
