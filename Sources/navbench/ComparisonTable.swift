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
    return lines.joined(separator: "\n") + opSummary
  }

  /// With both servers' `ops` rows: one line per op kind, the ratios of its
  /// p50 latencies, fan-out rates and server CPU (navd / Redis, each cell
  /// "ratio (navd, Redis)"), as issue 25's table has them.
  var opSummary: String {
    guard !redis.isEmpty else { return "" }
    let keys = Set(navd.joined().map(\.key))
    let kinds = OpKind.allCases.filter { keys.contains("op.\($0.rawValue).roundtrip.p50") }
    guard let first = kinds.first else { return "" }
    let prefix = "op.\(first.rawValue)."
    func counts(_ head: String, _ tail: String) -> [Int] {
      keys.compactMap { key -> Int? in
        guard key.hasPrefix(prefix + head), key.hasSuffix(tail) else { return nil }
        return Int(key.dropFirst(prefix.count + head.count).dropLast(tail.count))
      }.sorted()
    }
    var columns: [(title: String, key: String)] = [("round trip p50", "roundtrip.p50")]
    columns += counts("delivery.", ".last.p50").map { ("last of \($0) p50", "delivery.\($0).last.p50") }
    columns += counts("fanout.", ".rate").map { ("pipelined fan-out at \($0)", "fanout.\($0).rate") }
    columns.append(("server CPU per round trip", "roundtrip.cpu"))
    columns += counts("delivery.", ".cpuPerUpdate").map {
      ("server CPU per update delivered to \($0)", "delivery.\($0).cpuPerUpdate")
    }
    var lines = [
      "", "", "Op kinds (the `ops` scenario), navd / Redis (navd, Redis: µs, or /s for fan-out):", "",
      "| op kind | bytes | " + columns.map(\.title).joined(separator: " | ") + " |",
      "|---|---|" + String(repeating: "---|", count: columns.count),
    ]
    for kind in kinds {
      let cells = columns.map { column -> String in
        let key = "op.\(kind.rawValue).\(column.key)"
        let n = Self.median(key, in: navd)
        let r = Self.median(key, in: redis)
        guard n.isFinite, r.isFinite, r != 0 else { return "–" }
        let unit = key.hasSuffix(".rate") ? "/s" : "µs"
        return "\(format(n / r, decimals: 2)) (\(Self.cell(n, unit)), \(Self.cell(r, unit)))"
      }
      let bytes = Self.cell(Self.median("op.\(kind.rawValue).bytes", in: navd), "bytes")
      lines.append("| \(kind.label) | \(bytes) | " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
  }

  /// A median for the table; a dash where a server has no such row.
  static func cell(_ value: Double, _ unit: String) -> String {
    value.isNaN ? "–" : format(value, decimals: Measurements.decimals(unit))
  }
}
