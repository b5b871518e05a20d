import CNavSys

#if canImport(Glibc)
  import Glibc
#endif

/// A thread of navd's own, for blocking work (a `sigwait`, `epoll_wait`, an SQLite
/// commit, a log write) that must never run on Swift's cooperative pool.
///
/// A plain pthread, so navd needs no `Foundation.Thread` (and does not link Foundation).
public final class OwnThread: Sendable {
  // pthread_t is an integer on Linux; it is written once, before anyone can join.
  private nonisolated(unsafe) var thread = pthread_t()

  /// Starts `body` on a new thread named `name` (the first 15 bytes show in `ps -L`),
  /// with `stackSize` bytes of stack (nil: the system's default).
  public init(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    final class Box {
      let name: String
      let body: @Sendable () -> Void
      init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
      }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    let box = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
    let created = pthread_create(
      &thread, &attributes,
      { argument in
        let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
        cnav_name_current_thread(box.name)
        box.body()
        return nil
      }, box)
    precondition(created == 0, "pthread_create failed for the \(name) thread: \(created)")
  }

  /// Waits for the body to return.
  public func join() { pthread_join(thread, nil) }
}
