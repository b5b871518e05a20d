import NavSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Opening a connection.
extension ClientConnection {
  /// Connects to navd's socket at `path` without blocking a thread.
  ///
  /// A non-blocking AF_UNIX connect either succeeds, fails (ENOENT, ECONNREFUSED, … become
  /// `.unreachable`), or says EAGAIN because the listener's backlog is full; that is retried
  /// with a short sleep until `deadline` (`.timedOut`), or for 10 s without one.
  static func connect(to path: String, deadline: ContinuousClock.Instant?) async throws -> ClientConnection {
    let fd: Int32
    do {
      fd = try Syscall.unixStreamSocket()
    } catch {
      throw NavClientError.system(function: error.function, errno: error.errno)
    }
    let giveUp = deadline ?? .now + .seconds(10)
    var delay = Duration.milliseconds(1)
    while true {
      let result: IOResult<Void>
      do {
        result = try Syscall.connect(fd, path: path)
      } catch {
        Syscall.close(fd)
        throw NavClientError.unreachable(path, errno: error.errno)
      }
      if case .done = result { return ClientConnection(fd: fd, socketPath: path) }
      guard ContinuousClock.now + delay < giveUp else {
        Syscall.close(fd)
        throw deadline == nil ? NavClientError.unreachable(path, errno: EAGAIN) : NavClientError.timedOut
      }
      do {
        try await Task.sleep(for: delay)
      } catch {
        Syscall.close(fd)
        throw error
      }
      delay = min(delay * 2, .milliseconds(50))
    }
  }
}
