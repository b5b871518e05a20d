import CNavSys
import NavModel
import Varlink

#if canImport(Glibc)
  import Glibc
#endif

/// Turning clients away when the server cannot serve them: every connection it can accept is
/// answered the service's refusal (`ServerConfiguration.refusal`; navd: `io.navd.LimitExceeded`) before it is closed (PROTOCOL.md §2, "When navd
/// turns a connection away").
extension ServerLoop {
  /// Writes `frame` to a just-accepted connection and closes it, without keeping any
  /// state. The socket is fresh, so the reply (a few hundred bytes) fits its buffer.
  /// Input that has already arrived is read and dropped first: closing a Unix socket
  /// with unread input would make the client's next read fail with ECONNRESET instead
  /// of EOF (the reply itself is still delivered before it).
  func rejectAtOnce(_ fd: Int32, frame: [UInt8], peer: PeerCredentials?) {
    let written = frame.withUnsafeBytes { bytes in (try? Syscall.send(fd, bytes)) }
    _ = try? Syscall.read(fd, into: readBuffer)
    Syscall.close(fd)
    var fields: [(key: String, value: String)] = []
    if let peer { fields = [("pid", String(peer.pid)), ("uid", String(peer.uid))] }
    if case .done(frame.count)? = written {
      log.info("connection turned away at once: answered the refusal and closed", fields)
    } else {
      log.warning("connection turned away at once; the refusal could not be written", fields)
    }
  }

  /// Out of file descriptors: release the spare, accept one connection, answer it
  /// the refusal, close it and take the spare back. Returns whether accepting may go
  /// on; when even the spare cannot be had, the listener is paused until the next tick
  /// (pending clients wait in the backlog) so its readiness cannot spin the loop.
  func shedWithSpareDescriptor(_ error: SystemCallError) -> Bool {
    if spareFD >= 0 {
      Syscall.close(spareFD)
      spareFD = -1
    }
    let result = Result { () throws(SystemCallError) in try Syscall.accept(listenFD) }
    if case .success(.done(let fd)) = result {
      counters.accepted.add(1, ordering: .relaxed)
      counters.rejected.add(1, ordering: .relaxed)
      rejectAtOnce(fd, frame: descriptorLimitFrame(), peer: nil)
    }
    spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    switch result {
    case .success(.wouldBlock): return false
    case .success(.done) where spareFD >= 0: return true
    default:
      log.error("out of file descriptors and no spare left; not accepting until the next tick: \(error)")
      pauseAccepting()
      return false
    }
  }

  /// The refusal for a connection accepted only to be told the server has no
  /// file descriptors left (`limit: "fileDescriptors"`, `max`: the descriptor limit).
  func descriptorLimitFrame() -> [UInt8] {
    let open = counters.open.load(ordering: .relaxed)
    var descriptors = rlimit()
    _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &descriptors)
    return limitExceededFrame(
      limit: "fileDescriptors", max: Int(clamping: descriptors.rlim_cur), value: open + 1,
      message: "\(configuration.product) has no file descriptors left for a new connection (\(open) open); "
        + "close idle connections and retry")
  }

  private func pauseAccepting() {
    guard !acceptPaused, listenFD >= 0 else { return }
    acceptPaused = (try? epoll.modify(listenFD, token: Self.listenerToken, interest: .none)) != nil
  }

  /// Watches the listener again (the tick after a pause).
  func resumeAccepting() {
    guard acceptPaused, listenFD >= 0 else { return }
    if (try? epoll.modify(listenFD, token: Self.listenerToken, interest: .init(read: true, write: false))) != nil {
      acceptPaused = false
    }
  }
}
