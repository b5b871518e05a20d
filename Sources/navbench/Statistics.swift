/// Percentiles of a sample of durations, in microseconds.
struct Percentiles {
  let sorted: [Double]

  init(nanoseconds samples: [UInt64]) {
    sorted = samples.map { Double($0) / 1000 }.sorted()
  }

  /// The value at quantile `q` (nearest rank).
  func at(_ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  var p50: Double { at(0.50) }
  var p99: Double { at(0.99) }
}

/// Formats a number of microseconds or a rate for the table.
func format(_ value: Double, decimals: Int = 1) -> String {
  guard value.isFinite else { return "-" }
  var text = String(Int(value.rounded(.down)))
  if decimals > 0 {
    let fraction = Int(((value - value.rounded(.down)) * 10).rounded(.down))
    text += ".\(fraction)"
  }
  return text
}
