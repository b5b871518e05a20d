import CNavSys

#if canImport(Glibc)
  import Glibc
#endif

/// Wraps each system call once (swift-nio's `syscall(blocking:where:)` idea): retries
/// EINTR, returns EAGAIN as `.wouldBlock`, throws anything else with errno and name.
///
/// navd's server, `NavClient` and navbench all use these; the server adds its own
/// (accept, peer credentials) next to its event loop.
public enum Syscall {
  /// Runs `body` until it stops failing with EINTR; `body` returns -1 and sets errno on failure.
  @inlinable @inline(__always)
  public static func call<T: BinaryInteger>(_ function: String, _ body: () -> T) throws(SystemCallError) -> IOResult<
    T
  > {
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
  public static func blocking<T: BinaryInteger>(_ function: String, _ body: () -> T) throws(SystemCallError) -> T {
    switch try call(function, body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemCallError(function, errno: EAGAIN)
    }
  }

  /// A close-on-exec AF_UNIX stream socket, non-blocking unless `blocking`.
  public static func unixStreamSocket(blocking: Bool = false) throws(SystemCallError) -> Int32 {
    try self.blocking("socket") { cnav_unix_stream_socket(blocking ? 0 : 1) }
  }

  /// connect(2) to a Unix socket path (ENAMETOOLONG when it does not fit `sun_path`).
  ///
  /// On a non-blocking AF_UNIX socket Linux never waits: it connects, refuses, or says
  /// EAGAIN (`.wouldBlock`) when the listener's backlog is full.
  public static func connect(_ fd: Int32, path: String) throws(SystemCallError) -> IOResult<Void> {
    switch try call("connect", { cnav_connect_unix(fd, path) }) {
    case .done: .done(())
    case .wouldBlock: .wouldBlock
    }
  }

  /// read(2) into `buffer`; `.done(0)` is end of file.
  public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> IOResult<
    Int
  > {
    try call("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
  }

  /// send(2) with MSG_NOSIGNAL, so a vanished peer is EPIPE and not a fatal SIGPIPE.
  ///
  /// The bare system call (`cnav_send_nosignal`), not glibc's send(), whose cancellation
  /// point cost ~30 instructions per call (callgrind, 64 subscribers: a send per
  /// subscriber per publish). `@inlinable`, so the server's loop sends without a call
  /// into NavSystem (callgrind, 64 subscribers: ~38 instructions per subscriber per publish).
  @inlinable
  public static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
    try call("send") { cnav_send_nosignal(fd, buffer.baseAddress, buffer.count) }
  }

  /// close(2). EINTR is not retried: on Linux the descriptor is released anyway.
  public static func close(_ fd: Int32) {
    _ = Glibc.close(fd)
  }
}
