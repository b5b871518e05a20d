import Testing

@testable import navbench

@Suite("navbench statistics and the comparison table")
struct StatisticsTests {
  @Test("nearest-rank percentiles and medians")
  func percentiles() {
    let p = Percentiles(nanoseconds: (1...100).map { UInt64($0) * 1000 })
    #expect(p.p50 == 50)
    #expect(p.p99 == 99)
    #expect(median([3, 1, 2]) == 2)
    #expect(median([4, 1, 2, 3]) == 2.5)
    #expect(median([]).isNaN)
  }

  @Test("numbers are grouped by thousands with fixed decimals")
  func formatting() {
    #expect(format(1_234_567.891, decimals: 1) == "1,234,567.9")
    #expect(format(12.04, decimals: 2) == "12.04")
    #expect(format(999, decimals: 0) == "999")
    #expect(format(-1500, decimals: 0) == "-1,500")
    #expect(format(.nan) == "-")
  }

  @Test("a results line reads back as it was written")
  func tsv() {
    let m = Measurement(key: "roundtrip.p50", label: "round trip p50", unit: "µs", value: 27.5)
    let back = Measurement(tsvLine: Substring(m.tsvLine))
    #expect(back?.key == m.key && back?.label == m.label && back?.unit == m.unit && back?.value == m.value)
  }

  @Test("the table shows medians of rounds and navd/Redis ratios; navd-only rows have no ratio")
  func table() {
    func round(_ rt: Double, startup: Double? = nil) -> [Measurement] {
      [Measurement(key: "rt.p50", label: "round trip p50", unit: "µs", value: rt)]
        + (startup.map { [Measurement(key: "startup", label: "start-up", unit: "ms", value: $0)] } ?? [])
    }
    let table = ComparisonTable(
      navd: [round(70, startup: 5), round(90, startup: 7), round(60, startup: 6)],
      redis: [round(30), round(20), round(25)]
    ).markdown
    #expect(table.contains("| round trip p50 | µs | 25.0 | 70.0 | 2.80 |"))
    #expect(table.contains("| start-up | ms | – | 6.00 | – |"))
    let alone = ComparisonTable(navd: [round(70), round(90), round(60)], redis: []).markdown
    #expect(alone.hasPrefix("| measurement | unit | navd |"))
    #expect(alone.contains("| round trip p50 | µs | 70.0 |"))
  }

  @Test("bad options name the option and the value")
  func options() {
    #expect(throws: Options.UsageError.self) { try Options.parse(["--subscribers", "1,x"]) }
    #expect(throws: Options.UsageError.self) { try Options.parse(["--scenarios", "roundtrip,nope"]) }
    #expect(throws: Options.UsageError.self) { try Options.parse(["--seconds", "0"]) }
    #expect((try? Options.parse(["--many", "0"]))?.settings.manySubscribers == 0)
    do {
      _ = try Options.parse(["--window", "-3"])
    } catch {
      #expect(error.description.contains("--window") && error.description.contains("-3"))
    }
  }
}
