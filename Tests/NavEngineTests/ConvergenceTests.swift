import NavEngine
import NavModel
import NavTestSupport
import Testing

/// K writers with random base versions and both policies, S subscribers with
/// different views: everyone ends on the same document, versions are gap-free,
/// and replaying the committed ops reproduces the state (CONFLICTS.md).
@Suite("Convergence in one process")
struct ConvergenceTests {
  @Test("8 writers × 300 mutations converge for 4 subscribers")
  func convergence() async throws {
    let seed = SplitMix64.testSeed(default: 20_261_129)
    let store = RecordingStore()
    let scene = makeScene(store: store) { $0.opLogCapacity = 64 }
    let views: [DocumentView] = [.state, .layout(.defaults), .layout(LayoutMetrics(width: 320)), .state]
    // Two subscribers never fall behind; two have small queues and are coalesced.
    let subscribers = views.indices.map { TestSubscriber(id: UInt64($0 + 1), queueLimit: $0 < 2 ? 1 << 30 : 4096) }
    var documents: [JSONValue] = []
    // Each update as (fromVersion, toVersion): a commit group of event-free versions is one update (§6).
    var versions: [[(UInt64, UInt64)]] = Array(repeating: [], count: views.count)
    for (s, view) in zip(subscribers, views) {
      try await scene.subscribe(s.subscriber, view: view, sinceVersion: nil)
      documents.append(try s.pull()[0]["document"]!)
    }
    let acks = try await withThrowingTaskGroup(of: [UInt64].self) { group in
      for writer in 0..<8 {
        group.addTask {
          var random = RandomMutations(seed: seed &+ UInt64(writer))
          var acked: [UInt64] = []
          for _ in 0..<300 {
            let (state, version) = await scene.snapshot()
            let base: UInt64? =
              random.chance(0.8) ? version - min(version, UInt64.random(in: 0...3, using: &random.rng)) : nil
            let policy: ConflictPolicy = random.chance(0.5) ? .lastWriterWins : .failOnConflict
            let ops = random.ops(seeing: state)
            let request = MutationRequest(ops: ops, baseVersion: base, policy: policy, client: "w\(writer)")
            if case .success(let outcome) = await scene.mutate(request) { acked.append(outcome.version) }
          }
          return acked
        }
      }
      var all: [UInt64] = []
      for try await acked in group { all += acked }
      return all
    }
    for (i, s) in subscribers.enumerated() {
      for message in try s.pull() {
        if message["kind"] == "update" {
          let patch = try JSONPatch.decode(message["patch"] ?? [])
          documents[i] = try PatchApplier.apply(patch, to: documents[i])
          versions[i].append(
            (UInt64(message["fromVersion"]?.numberValue ?? -1), UInt64(message["toVersion"]?.numberValue ?? -1)))
        }
      }
    }
    let (final, finalVersion) = await scene.snapshot()
    #expect(
      acks.count >= 600, "seed \(seed): only \(acks.count) of 2400 mutations committed; the test would prove little")
    #expect(Set(acks).count == acks.count, "seed \(seed): two acks share a version")
    #expect(acks.sorted() == Array(1...finalVersion), "seed \(seed)")
    for (i, view) in views.enumerated() {
      #expect(documents[i] == view.document(of: final), "seed \(seed): subscriber \(i) (\(view)) diverged")
      let toVersions = versions[i].map(\.1)
      if subscribers[i].subscriber.coalescedCount == 0 {
        let chained = zip([0] + toVersions, versions[i]).allSatisfy { previous, update in update.0 == previous }
        #expect(
          chained && toVersions.last == finalVersion, "seed \(seed): subscriber \(i) saw a gap or repeat")
      } else {
        #expect(toVersions == toVersions.sorted() && toVersions.last == finalVersion, "seed \(seed)")
      }
    }
    var replayed = SceneState.empty
    for record in store.groups.flatMap({ $0 }).sorted(by: { $0.version < $1.version }) {
      replayed = try replayed.applying(record.ops).state
    }
    #expect(replayed == final, "seed \(seed): replaying the committed ops did not reproduce the state")
  }
}
