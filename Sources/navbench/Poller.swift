import CNavSys
import Glibc

/// Waits for any of many connections to become readable (epoll, level-triggered).
final class Poller {
  private let fd: Int32
  private var events: [epoll_event]

  init() throws {
    fd = epoll_create1(CNAV_EPOLL_CLOEXEC)
    guard fd >= 0 else { throw BenchConnection.Failure(description: "epoll_create1: errno \(cnav_errno())") }
    events = Array(repeating: epoll_event(), count: 1024)
  }

  deinit { close(fd) }

  /// Watches `connection` for input; `tag` comes back from `wait`.
  func add(_ connection: BenchConnection, tag: Int) throws {
    var event = epoll_event()
    event.events = CNAV_EPOLLIN
    event.data.u64 = UInt64(tag)
    guard epoll_ctl(fd, CNAV_EPOLL_CTL_ADD, connection.fd, &event) == 0 else {
      throw BenchConnection.Failure(description: "epoll_ctl: errno \(cnav_errno())")
    }
  }

  /// The tags of readable connections, waiting at most until `deadline`; empty when it passed.
  func wait(until deadline: Deadline) throws -> [Int] {
    while true {
      let n = epoll_wait(fd, &events, Int32(events.count), deadline.remainingMilliseconds)
      if n < 0 {
        if cnav_errno() == EINTR { continue }
        throw BenchConnection.Failure(description: "epoll_wait: errno \(cnav_errno())")
      }
      return (0..<Int(n)).map { Int(events[$0].data.u64) }
    }
  }
}
