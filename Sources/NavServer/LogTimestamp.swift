#if canImport(Glibc)
  import Glibc
#endif

/// A wall-clock instant for log lines, read with `clock_gettime(CLOCK_REALTIME)`.
///
/// navd keeps its own instead of Foundation's `Date` so the daemon links no Foundation
/// library at all (3.4 MiB of resident memory at idle for one formatted time).
public struct LogTimestamp: Sendable, Hashable {
  /// Seconds since the Unix epoch.
  public let seconds: Int
  /// Nanoseconds within the second (0 ..< 1,000,000,000).
  public let nanoseconds: Int

  /// The instant `seconds` and `nanoseconds` after the Unix epoch.
  public init(seconds: Int, nanoseconds: Int) {
    self.seconds = seconds
    self.nanoseconds = nanoseconds
  }

  /// Now.
  public static func now() -> LogTimestamp {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return LogTimestamp(seconds: time.tv_sec, nanoseconds: time.tv_nsec)
  }

  /// `2025-01-31T12:00:00.123Z`: ISO 8601 in UTC, milliseconds, truncated.
  public var iso8601: String {
    var seconds = time_t(self.seconds)
    var fields = tm()
    gmtime_r(&seconds, &fields)
    return "\(fields.tm_year + 1900)-\(Self.two(fields.tm_mon + 1))-\(Self.two(fields.tm_mday))T"
      + "\(Self.two(fields.tm_hour)):\(Self.two(fields.tm_min)):\(Self.two(fields.tm_sec))."
      + "\(Self.three(nanoseconds / 1_000_000))Z"
  }

  private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private static func three(_ value: Int) -> String {
    value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
  }
}
