import Dispatch

extension Duration {
  /// The duration for `DispatchTime` arithmetic, clamped to what fits in nanoseconds.
  var dispatchInterval: DispatchTimeInterval {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow || seconds < 0 { return seconds < 0 ? .nanoseconds(0) : .never }
    let nanoseconds = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    return nanoseconds.overflow ? .never : .nanoseconds(Int(clamping: nanoseconds.partialValue))
  }
}

/// When a call must be answered by, from the client's `timeout`; nil means no limit.
struct Deadline: Sendable {
  let instant: ContinuousClock.Instant?

  init(timeout: Duration?) {
    instant = timeout.map { ContinuousClock.now + $0 }
  }

  /// Time left, or nil without a limit. Throws `.timedOut` once the deadline has passed.
  func remaining() throws(NavClientError) -> Duration? {
    guard let instant else { return nil }
    let left = instant - ContinuousClock.now
    guard left > .zero else { throw .timedOut }
    return left
  }
}
