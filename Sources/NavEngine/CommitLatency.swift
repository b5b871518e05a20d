/// How long a scene's commit groups took to store (`SceneStore.commit`, or `commitAtOnce`),
/// as a histogram with fixed bounds: a few integers the scene's actor adds to per group.
public struct CommitLatency: Sendable, Hashable {
  /// The buckets' upper bounds in seconds (Prometheus's `le`), ascending; one more bucket
  /// counts everything above the last (`+Inf`).
  public static let bounds: [Double] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
  ]

  /// Groups per bucket, not cumulative (`bounds.count + 1` of them; the last is `+Inf`).
  public var counts = [Int](repeating: 0, count: bounds.count + 1)
  /// Seconds of every group together.
  public var sum = 0.0
  /// Groups measured.
  public var count = 0

  /// Counts one group that took `seconds`.
  mutating func record(_ seconds: Double) {
    var bucket = 0
    while bucket < Self.bounds.count, seconds > Self.bounds[bucket] { bucket += 1 }
    counts[bucket] += 1
    sum += seconds
    count += 1
  }

  /// Both histograms' groups together.
  mutating func add(_ other: CommitLatency) {
    for index in counts.indices { counts[index] += other.counts[index] }
    sum += other.sum
    count += other.count
  }

  /// Groups at or below each bound, then the total (`+Inf`): Prometheus's cumulative buckets.
  public var cumulative: [Int] {
    var total = 0
    return counts.map { count in
      total += count
      return total
    }
  }
}
