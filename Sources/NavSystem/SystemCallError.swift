#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call: which function and its errno. Thrown by every wrapper in `Syscall`.
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

  /// `send failed: Broken pipe (errno 32)`.
  public var description: String { "\(function) failed: \(String(cString: strerror(errno))) (errno \(errno))" }

  /// Whether the peer went away (EPIPE, ECONNRESET, ENOTCONN, ECONNABORTED): the connection
  /// is over, and a call that is safe to repeat may be sent again on a new one.
  public var isPeerGone: Bool {
    errno == EPIPE || errno == ECONNRESET || errno == ENOTCONN || errno == ECONNABORTED
  }
}
