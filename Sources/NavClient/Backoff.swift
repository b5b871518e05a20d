/// Delays between reconnection attempts: exponential, capped, jittered.
///
/// The n-th delay is drawn uniformly from [d/2, d] with d = initial · 2ⁿ⁻¹ capped at
/// `maximum`, so many clients that lost the same navd do not all knock at once.
struct Backoff: Sendable {
  /// The curve.
  struct Configuration: Sendable, Hashable {
    var initial: Duration
    var maximum: Duration

    /// 50 ms doubling to 2 s.
    static let standard = Configuration(initial: .milliseconds(50), maximum: .seconds(2))
  }

  let configuration: Configuration
  private var current: Duration

  init(_ configuration: Configuration) {
    self.configuration = configuration
    current = configuration.initial
  }

  /// The next delay; each call doubles the following one up to the maximum.
  mutating func next() -> Duration {
    var generator = SystemRandomNumberGenerator()
    return next(using: &generator)
  }

  /// `next()` with an explicit random source (tests).
  mutating func next(using generator: inout some RandomNumberGenerator) -> Duration {
    let ceiling = current
    current = min(current * 2, configuration.maximum)
    return ceiling * Double.random(in: 0.5...1, using: &generator)
  }

  /// Back to the initial delay, after a connection worked.
  mutating func reset() {
    current = configuration.initial
  }
}
