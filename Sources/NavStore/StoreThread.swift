#if canImport(Glibc)
  import Glibc
#endif

/// A thread of navd's own for blocking work (never the cooperative pool's).
final class StoreThread: Sendable {
  // pthread_t is an integer on Linux; it is written once, before anyone can join.
  private nonisolated(unsafe) var thread = pthread_t()

  /// Starts `body` on a new thread; `name` only labels a failure to start it.
  init(name: String, _ body: @escaping @Sendable () -> Void) {
    final class Box {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { argument in
        let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
        box.body()
        return nil
      }, box)
    precondition(created == 0, "pthread_create failed for the \(name) thread: \(created)")
  }

  /// Waits for the body to return.
  func join() { pthread_join(thread, nil) }
}
