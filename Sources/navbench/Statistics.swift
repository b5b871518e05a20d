/// Percentiles of a sample of durations, in microseconds.
struct Percentiles {
  let sorted: [Double]

  init(nanoseconds samples: [UInt64]) {
    sorted = samples.map { Double($0) / 1000 }.sorted()
  }

  /// The value at quantile `q` (nearest rank); NaN for an empty sample.
  func at(_ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  var p50: Double { at(0.50) }
  var p99: Double { at(0.99) }
  var count: Int { sorted.count }
}

/// The median of `values` (the mean of the middle two for an even count); NaN when empty.
func median(_ values: [Double]) -> Double {
  let sorted = values.filter { !$0.isNaN }.sorted()
  guard !sorted.isEmpty else { return .nan }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// A number for a table: thousands separated, `decimals` digits after the point; `-` for NaN.
func format(_ value: Double, decimals: Int = 1) -> String {
  guard value.isFinite else { return "-" }
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let scaled = Int64((abs(value) * scale).rounded())
  let whole = scaled / Int64(scale)
  let fraction = scaled % Int64(scale)
  var digits = Array(String(whole))
  var grouped: [Character] = []
  while digits.count > 3 {
    grouped.insert(contentsOf: [","] + digits.suffix(3), at: 0)
    digits.removeLast(3)
  }
  grouped.insert(contentsOf: digits, at: 0)
  var text = (value < 0 ? "-" : "") + String(grouped)
  if decimals > 0 {
    let padded = String(fraction)
    text += "." + String(repeating: "0", count: decimals - padded.count) + padded
  }
  return text
}
