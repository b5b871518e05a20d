#if canImport(Glibc)
  import Glibc
#endif

/// The result of a non-blocking system call: done, or it would have blocked.
enum IOResult<Value> {
  case done(Value)
  case wouldBlock
}

/// A failed system call: the C function and errno.
struct SyscallError: Error, Hashable, Sendable {
  var function: String
  var errno: Int32

  /// How a failed read or write on a connection surfaces: the peer went away, or something else.
  var clientError: NavClientError {
    ClientSocket.isPeerGone(errno) ? .disconnected : .system(function: function, errno: errno)
  }
}

/// The client's system calls, each wrapped once: EINTR is retried, EAGAIN is a value,
/// anything else throws with the function's name and errno.
enum ClientSocket {
  static func call<T: BinaryInteger>(_ function: String, _ body: () -> T) throws(SyscallError) -> IOResult<T> {
    while true {
      let result = body()
      if result >= 0 { return .done(result) }
      let code = Glibc.errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
      throw SyscallError(function: function, errno: code)
    }
  }

  /// A non-blocking, close-on-exec Unix stream socket.
  static func makeSocket() throws(SyscallError) -> Int32 {
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    switch try call("socket", { socket(AF_UNIX, type, 0) }) {
    case .done(let fd): return fd
    case .wouldBlock: throw SyscallError(function: "socket", errno: EAGAIN)
    }
  }

  /// connect(2) to a Unix socket path. On a non-blocking AF_UNIX socket Linux never blocks:
  /// it connects, refuses, or says EAGAIN when the listener's backlog is full.
  static func connect(_ fd: Int32, path: String) throws(SyscallError) -> IOResult<Void> {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { throw SyscallError(function: "connect", errno: ENAMETOOLONG) }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let result = try call("connect") {
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
      }
    }
    switch result {
    case .done: return .done(())
    case .wouldBlock: return .wouldBlock
    }
  }

  /// read(2); `.done(0)` is end of file.
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SyscallError) -> IOResult<Int> {
    try call("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
  }

  /// send(2) with MSG_NOSIGNAL: a vanished peer is EPIPE, not a process-killing SIGPIPE.
  static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SyscallError) -> IOResult<Int> {
    try call("send") { Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
  }

  /// close(2); EINTR is not retried because Linux releases the descriptor anyway.
  static func close(_ fd: Int32) {
    _ = Glibc.close(fd)
  }

  /// Whether `code` means the peer went away (the call may be retried on a new connection).
  static func isPeerGone(_ code: Int32) -> Bool {
    code == EPIPE || code == ECONNRESET || code == ENOTCONN || code == ECONNABORTED
  }
}
