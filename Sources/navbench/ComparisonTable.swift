import Foundation

/// `navbench report`: lines up rounds of results files from both servers and
/// prints one markdown table of medians with navd/Redis ratios.
struct ComparisonTable {
  /// One server's rounds: each results file is one round.
  var navd: [[Measurement]]
  var redis: [[Measurement]]

  init(navdFiles: [String], redisFiles: [String]) throws {
    navd = try navdFiles.map(Self.read)
    redis = try redisFiles.map(Self.read)
  }

  init(navd: [[Measurement]], redis: [[Measurement]]) {
    self.navd = navd
    self.redis = redis
  }

  static func read(_ path: String) throws -> [Measurement] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n").compactMap(Measurement.init(tsvLine:))
  }

  /// The median of `key` over `rounds` (NaN when no round has it).
  static func median(_ key: String, in rounds: [[Measurement]]) -> Double {
    navbench.median(rounds.compactMap { round in round.first { $0.key == key }?.value })
  }

  /// The table, rows in the order navd's first round produced them (Redis-only rows last);
  /// without Redis rounds, navd's medians alone (the engine benchmark has no Redis side).
  var markdown: String {
    var keys: [String] = []
    var rows: [String: Measurement] = [:]
    for measurement in (navd + redis).joined() where rows[measurement.key] == nil {
      keys.append(measurement.key)
      rows[measurement.key] = measurement
    }
    let compared = !redis.isEmpty
    var lines =
      compared
      ? ["| measurement | unit | Redis | navd | navd / Redis |", "|---|---|---|---|---|"]
      : ["| measurement | unit | navd |", "|---|---|---|"]
    for key in keys {
      let row = rows[key]!
      let n = Self.median(key, in: navd)
      guard compared else {
        lines.append("| \(row.label) | \(row.unit) | \(Self.cell(n, row.unit)) |")
        continue
      }
      let r = Self.median(key, in: redis)
      let ratio = r.isFinite && n.isFinite && r != 0 ? format(n / r, decimals: 2) : "–"
      lines.append("| \(row.label) | \(row.unit) | \(Self.cell(r, row.unit)) | \(Self.cell(n, row.unit)) | \(ratio) |")
    }
    return lines.joined(separator: "\n")
  }

  /// A median for the table; a dash where a server has no such row.
  static func cell(_ value: Double, _ unit: String) -> String {
    value.isNaN ? "–" : format(value, decimals: Measurements.decimals(unit))
  }
}
