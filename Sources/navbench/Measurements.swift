import Foundation

/// One number a run produced. `key` is stable across runs and servers, so
/// `navbench report` can line up navd's rounds against Redis's.
struct Measurement {
  var key: String
  /// Says what was measured in words that fit both servers.
  var label: String
  var unit: String
  var value: Double

  /// `key<TAB>label<TAB>unit<TAB>value`, one line of a results file.
  var tsvLine: String { "\(key)\t\(label)\t\(unit)\t\(value)" }

  init(key: String, label: String, unit: String, value: Double) {
    self.key = key
    self.label = label
    self.unit = unit
    self.value = value
  }

  init?(tsvLine line: Substring) {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count == 4, let value = Double(fields[3]) else { return nil }
    self.init(key: String(fields[0]), label: String(fields[1]), unit: String(fields[2]), value: value)
  }
}

/// Collects a run's measurements: prints each as a table row as soon as it
/// exists (a run that fails half-way still shows what it got) and writes
/// them all to a results file at the end.
final class Measurements {
  private(set) var all: [Measurement] = []
  private var printedHeader = false

  func record(_ key: String, _ label: String, _ unit: String, _ value: Double) {
    let measurement = Measurement(key: key, label: label, unit: unit, value: value)
    all.append(measurement)
    if !printedHeader {
      print("| measurement | value | unit |\n|---|---|---|")
      printedHeader = true
    }
    print("| \(label) | \(format(value, decimals: Self.decimals(unit))) | \(unit) |")
    fflush(nil)  // nil flushes every stream (stdout itself is not concurrency-safe to name)
  }

  /// A p50 and a p99 row for one latency.
  func record(_ key: String, _ label: String, _ latency: Percentiles) {
    record("\(key).p50", "\(label) p50", "µs", latency.p50)
    record("\(key).p99", "\(label) p99", "µs", latency.p99)
  }

  func write(toFile path: String) throws {
    try all.map(\.tsvLine).joined(separator: "\n").appending("\n").write(
      toFile: path, atomically: true, encoding: .utf8)
  }

  /// Digits after the point for a unit: rates and counts are whole.
  static func decimals(_ unit: String) -> Int {
    switch unit {
    case "/s", "count", "ns", "bytes": 0
    case "MiB", "ms": 2
    default: 1
    }
  }
}
