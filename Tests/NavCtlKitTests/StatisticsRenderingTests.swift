import NavModel
import NavWire
import Testing

@testable import NavCtlKit

/// `navctl stats`: a `GetStatistics` reply as text and in Prometheus's text exposition format.
@Suite("stats rendering")
struct StatisticsRenderingTests {
  static let reply: JSONValue = {
    var totals = SceneCounts()
    totals.mutations = 7
    totals.failOnConflictConflicts = 2
    totals.refusals = [NamedCount(name: "io.navd.Conflict", count: 2)]
    totals.subscribers = 1
    var scene = totals
    scene.queuedBytes = 42
    let reply = NavStatistics(
      uptimeSeconds: 12.5, connections: 3, acceptedConnections: 9, rejectedConnections: 1, totals: totals,
      waitingSubscribers: 0, denials: [NamedCount(name: "admin", count: 1)],
      commitLatency: LatencyHistogram(
        buckets: [.init(le: 0.000_05, count: 1), .init(le: 0.001, count: 6)], sum: 0.0021, count: 7),
      redoBytes: 4096, databaseBytes: 65536,
      scenes: [SceneStatistics(name: "mail\"x", version: 7, epoch: "0123456789abcdef", counts: scene)],
      users: [UserUsage(uid: 1001, scenes: 1, maxScenes: 64, waitedScenes: 0, maxWaitedScenes: 64)])
    return reply.parameters
  }()

  @Test("the typed reply reads back what it wrote")
  func roundTrip() throws {
    let read = try NavStatistics(parameters: Self.reply)
    #expect(read.parameters == Self.reply)
  }

  @Test("Prometheus: HELP and TYPE per metric, navd_ names, escaped labels, cumulative buckets with +Inf, _sum, _count")
  func prometheus() throws {
    let text = try #require(PrometheusText.render(Self.reply))
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.contains("# TYPE navd_mutations_total counter"))
    #expect(lines.contains(#"navd_mutations_total{scene="mail\"x"} 7"#))
    #expect(lines.contains(#"navd_conflicts_total{policy="failOnConflict"} 2"#))
    #expect(lines.contains(#"navd_refusals_total{error="io.navd.Conflict"} 2"#))
    #expect(lines.contains(#"navd_denials_total{right="admin"} 1"#))
    #expect(lines.contains("# TYPE navd_commit_duration_seconds histogram"))
    #expect(lines.contains(#"navd_commit_duration_seconds_bucket{le="5e-05"} 1"#))
    #expect(lines.contains(#"navd_commit_duration_seconds_bucket{le="+Inf"} 7"#))
    #expect(lines.contains("navd_commit_duration_seconds_sum 0.0021"))
    #expect(lines.contains("navd_commit_duration_seconds_count 7"))
    #expect(lines.contains(#"navd_user_scenes_limit{uid="1001"} 64"#))
    // Every sample's metric has its HELP and TYPE before it; every name has the prefix.
    var described: Set<String> = []
    for line in lines {
      if line.hasPrefix("# TYPE ") { described.insert(String(line.split(separator: " ")[2])) }
      guard !line.hasPrefix("#") else { continue }
      let name = String(line.prefix { $0 != "{" && $0 != " " })
      #expect(name.hasPrefix("navd_"))
      let family = ["_bucket", "_sum", "_count"].reduce(name) { $0.hasSuffix($1) ? String($0.dropLast($1.count)) : $0 }
      #expect(described.contains(name) || described.contains(family), "\(line)")
    }
  }

  @Test("text: totals first, then one row per scene and per uid")
  func text() {
    let text = StatisticsText.render(Self.reply)
    #expect(text.contains("mutations:             7\n"))
    #expect(text.contains("refusals:              io.navd.Conflict 2\n"))
    #expect(text.contains("1001  1/64  0/64\n"))
  }
}
