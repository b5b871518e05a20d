import CNavSys

#if canImport(Glibc)
  import Glibc
#endif

/// An epoll instance: the readiness selector of the event loop.
///
/// Each registration carries a 64-bit token (the listener, the wake-up eventfd, or a
/// connection id) that comes back with its events.
struct Epoll: ~Copyable {
  /// Which readiness a registration asks for.
  struct Interest: Equatable {
    var read: Bool
    var write: Bool

    static let none = Interest(read: false, write: false)

    var events: UInt32 {
      // RDHUP tells a peer's half-close apart from "nothing to read" without a read.
      (read ? CNAV_EPOLLIN | CNAV_EPOLLRDHUP : 0) | (write ? CNAV_EPOLLOUT : 0)
    }
  }

  /// One ready registration.
  struct Event {
    var token: UInt64
    var events: UInt32

    var isReadable: Bool { events & (CNAV_EPOLLIN | CNAV_EPOLLRDHUP) != 0 }
    var isWritable: Bool { events & CNAV_EPOLLOUT != 0 }
    /// Both directions are gone (or the socket has an error): reported even without interest.
    var isHangUp: Bool { events & (CNAV_EPOLLHUP | CNAV_EPOLLERR) != 0 }
  }

  let fd: Int32
  private let buffer: UnsafeMutablePointer<epoll_event>
  private let capacity: Int

  /// Creates the epoll fd (close-on-exec) and room for `capacity` events per wait.
  init(capacity: Int = 256) throws(SystemCallError) {
    fd = try Syscall.blocking("epoll_create1") { epoll_create1(CNAV_EPOLL_CLOEXEC) }
    self.capacity = capacity
    buffer = .allocate(capacity: capacity)
  }

  deinit {
    buffer.deallocate()
    Syscall.close(fd)
  }

  /// Adds `descriptor` with `interest`, tagged with `token`.
  func add(_ descriptor: Int32, token: UInt64, interest: Interest) throws(SystemCallError) {
    try control(CNAV_EPOLL_CTL_ADD, descriptor, token: token, events: interest.events)
  }

  /// Changes what `descriptor` is watched for.
  func modify(_ descriptor: Int32, token: UInt64, interest: Interest) throws(SystemCallError) {
    try control(CNAV_EPOLL_CTL_MOD, descriptor, token: token, events: interest.events)
  }

  /// Stops watching `descriptor` (needed before a hung-up socket spins the loop with EPOLLHUP).
  func remove(_ descriptor: Int32) throws(SystemCallError) {
    try control(CNAV_EPOLL_CTL_DEL, descriptor, token: 0, events: 0)
  }

  private func control(_ operation: Int32, _ descriptor: Int32, token: UInt64, events: UInt32)
    throws(SystemCallError)
  {
    var event = epoll_event()
    event.events = events
    event.data.u64 = token
    _ = try Syscall.blocking("epoll_ctl") { epoll_ctl(fd, operation, descriptor, &event) }
  }

  /// Waits up to `timeoutMilliseconds` (-1: forever) and calls `body` for each ready registration.
  func wait(timeoutMilliseconds: Int32, _ body: (Event) -> Void) throws(SystemCallError) {
    let count: Int32
    switch try Syscall.call("epoll_wait", { epoll_wait(fd, buffer, Int32(capacity), timeoutMilliseconds) }) {
    case .done(let n): count = n
    case .wouldBlock: count = 0
    }
    for index in 0..<Int(count) {
      let raw = buffer[index]
      body(Event(token: raw.data.u64, events: raw.events))
    }
  }
}
