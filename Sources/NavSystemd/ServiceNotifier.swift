import CSystemd
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Talks to the service manager over `$NOTIFY_SOCKET` (`Type=notify`): readiness,
/// status, reload, stop, watchdog pings and the file descriptor store.
///
/// Without `NOTIFY_SOCKET` every call does nothing (sd_notify returns 0), so navd
/// started by hand behaves the same. The environment is left in place (children
/// of navd never see it: navd starts none).
///
/// Messages go out in order from one serial dispatch queue (not the cooperative pool,
/// not the event loop): `sendmsg` to a manager that does not read could block.
public final class ServiceNotifier: Sendable {
  /// Whether a service manager listens (`NOTIFY_SOCKET` is set).
  public let isEnabled: Bool
  private let lastStatus = Mutex<String?>(nil)
  private let queue = DispatchQueue(label: "navd.notify")

  /// Reads `NOTIFY_SOCKET` once.
  public init() {
    isEnabled = getenv("NOTIFY_SOCKET") != nil
  }

  /// Queues `state` (newline-separated `KEY=VALUE` assignments) for sending.
  public func send(_ state: String) {
    guard isEnabled else { return }
    queue.async { _ = csd_notify(0, state) }
  }

  /// Waits until every message queued so far has been sent (before exiting).
  public func flush() {
    guard isEnabled else { return }
    queue.sync {}
  }

  /// `READY=1` with the current status: state loaded, socket served.
  public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

  /// `STATUS=…`, only when it differs from the last one sent.
  public func status(_ text: String) {
    let changed = lastStatus.withLock { last -> Bool in
      guard last != text else { return false }
      last = text
      return true
    }
    if changed { send("STATUS=\(text)") }
  }

  /// `RELOADING=1` and `MONOTONIC_USEC=` (the latter is read by systemd 253 and later; 252 ignores it).
  public func reloading() {
    send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())\nSTATUS=reloading configuration")
  }

  /// `STOPPING=1` with a status line.
  public func stopping(status: String) { send("STOPPING=1\nSTATUS=\(status)") }

  /// `WATCHDOG=1`.
  public func watchdogPing() { send("WATCHDOG=1") }

  /// Hands `fds` to the fd store under `name` (`FDSTORE=1`, `FDNAME=`); returns whether
  /// the manager took them (it needs `FileDescriptorStoreMax=` > 0).
  @discardableResult
  public func store(_ fds: [Int32], name: String) -> Bool {
    guard isEnabled, !fds.isEmpty else { return false }
    flush()
    return fds.withUnsafeBufferPointer { buffer in
      csd_pid_notify_with_fds(0, 0, "FDSTORE=1\nFDNAME=\(name)", buffer.baseAddress, UInt32(buffer.count)) > 0
    }
  }

  /// CLOCK_MONOTONIC in microseconds, as systemd's `MONOTONIC_USEC=` expects.
  public static func monotonicMicroseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000 + UInt64(spec.tv_nsec) / 1000
  }
}
