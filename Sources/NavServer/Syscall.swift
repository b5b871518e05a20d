import CNavSys

#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call: which function and its errno. Thrown by every wrapper here.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The C function that failed (`"accept4"`, `"epoll_ctl"`, …).
  public var function: String
  /// errno after the failure.
  public var errno: Int32

  /// Creates the error for `function` failing with `errno`.
  public init(_ function: String, errno: Int32) {
    self.function = function
    self.errno = errno
  }

  public var description: String { "\(function) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// The result of a non-blocking call: done, or it would have blocked (EAGAIN/EWOULDBLOCK).
enum IOResult<Value> {
  case done(Value)
  case wouldBlock
}

/// Wraps each system call once (swift-nio's `syscall(blocking:where:)` idea): retries
/// EINTR, returns EAGAIN as `.wouldBlock`, throws anything else with errno and name.
enum Syscall {
  /// Runs `body` until it stops failing with EINTR; `body` returns -1 and sets errno on failure.
  @inline(__always)
  static func call<T: BinaryInteger>(_ function: String, _ body: () -> T) throws(SystemCallError) -> IOResult<T> {
    while true {
      let result = body()
      if result >= 0 { return .done(result) }
      let error = cnav_errno()
      if error == EINTR { continue }
      if error == EAGAIN || error == EWOULDBLOCK { return .wouldBlock }
      throw SystemCallError(function, errno: error)
    }
  }

  /// Like `call`, for calls where would-block cannot happen (or is an error too).
  @inline(__always)
  static func blocking<T: BinaryInteger>(_ function: String, _ body: () -> T) throws(SystemCallError) -> T {
    switch try call(function, body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemCallError(function, errno: EAGAIN)
    }
  }

  /// read(2) into `buffer`; `.done(0)` is end of file.
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
    try call("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
  }

  /// send(2) with MSG_NOSIGNAL, so a vanished peer is EPIPE and not a fatal SIGPIPE.
  static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
    try call("send") { Glibc.send(fd, buffer.baseAddress, buffer.count, CNAV_MSG_NOSIGNAL) }
  }

  /// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC.
  static func accept(_ fd: Int32) throws(SystemCallError) -> IOResult<Int32> {
    try call("accept4") { cnav_accept_nonblocking(fd) }
  }

  /// close(2). EINTR is not retried: on Linux the descriptor is released anyway.
  static func close(_ fd: Int32) {
    _ = Glibc.close(fd)
  }

  /// SO_PEERCRED (and SO_PEERGROUPS, when the kernel has it) of a connected Unix socket.
  static func peerCredentials(_ fd: Int32) throws(SystemCallError) -> PeerCredentials {
    var credentials = cnav_ucred()
    _ = try blocking("getsockopt(SO_PEERCRED)") { cnav_peer_credentials(fd, &credentials) }
    return PeerCredentials(
      pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, groups: peerGroups(fd))
  }

  /// The peer's supplementary groups; empty when the kernel cannot say (no SO_PEERGROUPS).
  private static func peerGroups(_ fd: Int32) -> [UInt32] {
    var capacity = 32
    for _ in 0..<2 {
      var groups = [gid_t](repeating: 0, count: capacity)
      var total: Int32 = 0
      guard cnav_peer_groups(fd, &groups, Int32(capacity), &total) == 0 else { return [] }
      if Int(total) <= capacity { return Array(groups.prefix(Int(total))) }
      capacity = min(Int(total), 65_536)
    }
    return []
  }
}
