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

  /// The table, rows in the order navd's first round produced them (Redis-only rows last).
  var markdown: String {
    var keys: [String] = []
    var rows: [String: Measurement] = [:]
    for measurement in (navd + redis).joined() where rows[measurement.key] == nil {
      keys.append(measurement.key)
      rows[measurement.key] = measurement
    }
    var lines = [
      "| measurement | unit | Redis | navd | navd / Redis |",
      "|---|---|---|---|---|",
    ]
    for key in keys {
      let row = rows[key]!
      let decimals = Measurements.decimals(row.unit)
      let r = Self.median(key, in: redis)
      let n = Self.median(key, in: navd)
      let ratio = r.isFinite && n.isFinite && r != 0 ? format(n / r, decimals: 2) : "–"
      lines.append(
        "| \(row.label) | \(row.unit) | \(r.isNaN ? "–" : format(r, decimals: decimals)) | \(n.isNaN ? "–" : format(n, decimals: decimals)) | \(ratio) |"
      )
    }
    return lines.joined(separator: "\n")
  }
}
