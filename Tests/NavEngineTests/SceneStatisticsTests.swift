import NavModel
import Testing

@testable import NavEngine

/// What the engine counts for `GetStatistics` (PROTOCOL.md §3): mutations, conflicts by
/// policy (CONFLICTS.md), refusals by error, commit latency; a deleted scene's counts stay
/// in the totals.
@Suite("Scene statistics")
struct SceneStatisticsTests {
  @Test("mutations, conflicts by policy and refusals by error are counted; a deletion keeps them in the totals")
  func counted() async throws {
    let engine = Engine(store: InMemorySceneStore())
    let push = Op.push(Sample.item("inbox"), animated: false)
    _ = try await engine.mutate(scene: "mail", Sample.request([push], client: "a")).get()
    _ = try await engine.mutate(scene: "mail", Sample.request([Sample.title("inbox", "A")], client: "a")).get()
    // b overwrites a's title from an old base (last writer wins), then fails on conflict.
    let overwrite = try await engine.mutate(
      scene: "mail", Sample.request([Sample.title("inbox", "B")], base: 1, client: "b")
    ).get()
    #expect(!overwrite.overwritten.isEmpty)
    let refused = await engine.mutate(
      scene: "mail", Sample.request([Sample.title("inbox", "C")], base: 1, client: "c", policy: .failOnConflict))
    #expect((try? refused.get()) == nil)
    _ = await engine.mutate(scene: "mail", Sample.request([.pop(expectTop: nil, animated: false)]))
    let scene = try await engine.scene("mail").statistics
    #expect(scene.counters.mutations == 3)
    #expect(scene.counters.lastWriterWinsConflicts == 1)
    #expect(scene.counters.failOnConflictConflicts == 1)
    #expect(scene.counters.refusals.map(\.code) == [.cannotPopRoot, .conflict])
    #expect(scene.counters.commitLatency.count == 3)
    _ = try await engine.deleteScene("mail", ifVersion: nil).get()
    let totals = await engine.statistics().totals
    #expect(totals.mutations == 3 && totals.failOnConflictConflicts == 1, "a deleted scene's counts stay")
  }

  @Test("commit latency: each group in the first bucket whose bound it does not pass; cumulative ends at the count")
  func latencyBuckets() {
    var latency = CommitLatency()
    latency.record(0.000_01)
    latency.record(0.000_05)
    latency.record(0.003)
    latency.record(5)
    #expect(latency.counts[0] == 2)
    #expect(latency.counts[CommitLatency.bounds.firstIndex(of: 0.005)!] == 1)
    #expect(latency.counts.last == 1, "above the last bound: +Inf")
    #expect(latency.cumulative.last == latency.count)
  }
}
