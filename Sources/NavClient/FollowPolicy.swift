/// What a subscription does when navd goes away after it was connected: reconnect with
/// backoff and resume (`Subscribe` with `sinceVersion` and `epoch`), and for how long.
///
/// navd going away means `io.navd.ServerStopping`, the stream ending, or the connection
/// closing. A stream that cannot reconnect within `giveUpAfter` throws `NavClientError.gone`:
/// navd is gone for good as far as this client is concerned.
public struct FollowPolicy: Sendable, Hashable {
  /// Whether to reconnect at all; when false, navd going away throws (`.disconnected`, or the
  /// `io.navd.ServerStopping` error).
  public var reconnects: Bool
  /// How long navd may stay unreachable before the stream gives up; nil retries forever.
  public var giveUpAfter: Duration?

  /// A policy.
  public init(reconnects: Bool, giveUpAfter: Duration? = nil) {
    self.reconnects = reconnects
    self.giveUpAfter = giveUpAfter
  }

  /// Reconnect for as long as it takes (the default of `updates` and `actions`).
  public static let forever = FollowPolicy(reconnects: true)
  /// Never reconnect (the default of `replies`).
  public static let never = FollowPolicy(reconnects: false)
}
