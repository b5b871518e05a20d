import CSystemd
import Synchronization

/// The service manager's watchdog (`WatchdogSec=` → `WATCHDOG_USEC`): navd must send
/// `WATCHDOG=1` more often than the interval or it is killed and restarted.
///
/// `tick(now:)` is called from the event loop's heartbeat, so a loop that is stuck
/// stops pinging and the manager notices; it pings at most every half interval.
public final class Watchdog: Sendable {
  /// The manager's interval.
  public let interval: Duration
  private let ping: @Sendable () -> Void
  private let lastPing = Mutex<ContinuousClock.Instant?>(nil)

  /// The watchdog configured for this process, or nil when there is none
  /// (`WATCHDOG_USEC` unset, or `WATCHDOG_PID` names another process).
  public static func fromEnvironment(notifier: ServiceNotifier) -> Watchdog? {
    var microseconds: UInt64 = 0
    guard csd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
    return Watchdog(interval: .microseconds(microseconds)) { notifier.watchdogPing() }
  }

  /// A watchdog calling `ping` every half `interval`.
  public init(interval: Duration, ping: @escaping @Sendable () -> Void) {
    self.interval = interval
    self.ping = ping
  }

  /// How often the loop must call `tick`: a quarter interval, so pings land near every half.
  public var tickInterval: Duration { interval / 4 }

  /// Pings when half the interval has passed since the last ping.
  public func tick(now: ContinuousClock.Instant = .now) {
    let due = lastPing.withLock { last -> Bool in
      if let last, now - last < interval / 2 { return false }
      last = now
      return true
    }
    if due { ping() }
  }
}
