import NavModel
import NavTestSupport
import Testing

@testable import NavEngine

/// PROTOCOL.md §6 "Gap-free": the versions of one commit group reach a
/// subscriber as one update per view, from the document before the group to
/// the document after it, unless a version carries events (an update of its
/// own) or `animated` changes (a new update starts).
@Suite("One update per commit group")
struct UpdateSpanTests {
  @Test("§6 a group of event-free versions is one update from the version before it to its last")
  func eventFreeGroupIsOneUpdate() async throws {
    let scene = makeScene()
    try await scene.commit(Sample.request([.push(Sample.item("inbox"), animated: false)]))
    let subscribers = [TestSubscriber(id: 1), TestSubscriber(id: 2)]
    try await scene.subscribe(subscribers[0].subscriber, view: .state, sinceVersion: nil)
    try await scene.subscribe(subscribers[1].subscriber, view: .layout(.defaults), sinceVersion: nil)
    let before = try subscribers.map { try #require($0.pull().first?["document"]) }
    let results = await scene.commitGroup(
      (1...5).map { Sample.request([Sample.title("inbox", "Title \($0)")]) } + [
        Sample.request([Sample.button("b")])
      ])
    #expect(try results.map { try $0.get().version } == [2, 3, 4, 5, 6, 7])
    let state = await scene.snapshot().state
    for (subscriber, (view, document)) in zip(subscribers, zip([DocumentView.state, .layout(.defaults)], before)) {
      let updates = try subscriber.pull()
      #expect(updates.count == 1, "\(view): \(updates)")
      let update = try #require(updates.first)
      #expect(update["kind"] == "update" && update["fromVersion"] == 1 && update["toVersion"] == 7)
      #expect(update["coalesced"] == nil, "not a coalesced update: the wire leaves coalesced out when false")
      #expect(update["animated"] == false && update["events"] == [])
      let patched = try PatchApplier.apply(try JSONPatch.decode(update["patch"] ?? []), to: document)
      #expect(patched == view.document(of: state), "\(view): the patch leads from version 1 to version 7")
    }
    #expect(subscribers[0].subscriber.coalescedCount == 0, "nothing fell behind: the span is not a coalesced update")
  }

  @Test("§6 a version with events is an update of its own; a change of animated starts a new update")
  func eventsAndAnimatedSplitTheGroup() async throws {
    let scene = makeScene()
    try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)]))
    let subscriber = TestSubscriber(id: 1)
    try await scene.subscribe(subscriber.subscriber, view: .state, sinceVersion: nil)
    var document = try #require(try subscriber.pull().first?["document"])
    let animatedTitle = Op.updateNavigationItem("root", [.title("moving")], animated: true)
    _ = await scene.commitGroup([
      Sample.request([Sample.title("root", "a")]),  // 2
      Sample.request([Sample.title("root", "b")]),  // 3
      Sample.request([.push(Sample.item("next"), animated: false)]),  // 4: a push event
      Sample.request([Sample.title("next", "c")]),  // 5
      Sample.request([animatedTitle]),  // 6: animated
      Sample.request([Sample.button("x")]),  // 7
      Sample.request([Sample.button("y")]),  // 8
    ])
    let updates = try subscriber.pull()
    #expect(updates.map { [$0["fromVersion"], $0["toVersion"]] } == [[1, 3], [3, 4], [4, 5], [5, 6], [6, 8]])
    #expect(updates.map { $0["animated"] } == [false, false, false, true, false])
    #expect(updates[1]["events"] == [["type": "push", "item": "next", "animated": false]])
    #expect(updates.allSatisfy { $0["coalesced"] == nil })
    for update in updates {
      document = try PatchApplier.apply(try JSONPatch.decode(update["patch"] ?? []), to: document)
    }
    #expect(document == (await scene.snapshot()).state.json)
  }

  @Test("§6 seeded random groups of 1 to 24 versions: every view converges, spans follow the rule")
  func randomGroupsConverge() async throws {
    let seed = SplitMix64.testSeed(default: 20_261_130)
    var random = RandomMutations(seed: seed)
    let scene = makeScene { $0.opLogCapacity = 4096 }
    let views: [DocumentView] = [.state, .layout(.defaults), .layout(LayoutMetrics(width: 320))]
    let subscribers = views.indices.map { TestSubscriber(id: UInt64($0 + 1), queueLimit: 1 << 30) }
    var documents: [JSONValue] = []
    for (subscriber, view) in zip(subscribers, views) {
      try await scene.subscribe(subscriber.subscriber, view: view, sinceVersion: nil)
      documents.append(try #require(try subscriber.pull().first?["document"]))
    }
    var state = SceneState.empty
    for round in 0..<120 {
      let size = Int.random(in: 1...24, using: &random.rng)
      var requests: [MutationRequest] = []
      for _ in 0..<size {
        let ops = random.ops(seeing: state)
        if let applied = try? state.applying(ops) { state = applied.state }
        requests.append(Sample.request(ops))
      }
      let before = await scene.snapshot().version
      _ = await scene.commitGroup(requests)
      let (final, version) = await scene.snapshot()
      #expect(final == state, "seed \(seed), round \(round): the engine and the test disagree on the state")
      let entries = await scene.log.entries(after: before)
      let expected = Self.referenceSpans(entries).map { [JSONValue?.some(.number(Double($0))), .number(Double($1))] }
      for (index, subscriber) in subscribers.enumerated() {
        let updates = try subscriber.pull()
        #expect(
          updates.map { [$0["fromVersion"], $0["toVersion"]] } == expected,
          "seed \(seed), round \(round), \(views[index]): updates do not follow the group's spans")
        for update in updates {
          documents[index] = try PatchApplier.apply(try JSONPatch.decode(update["patch"] ?? []), to: documents[index])
          let spansOne = update["toVersion"]?.numberValue == (update["fromVersion"]?.numberValue ?? 0) + 1
          #expect(spansOne || update["events"] == [], "seed \(seed), round \(round): a span carries events")
        }
        #expect(
          documents[index] == views[index].document(of: final),
          "seed \(seed), round \(round), \(views[index]) at version \(version): the patches diverged")
      }
    }
  }

  /// The spans of a group, worked out one version at a time as PROTOCOL.md
  /// §6 states the rule: (first version's predecessor, last version) pairs.
  private static func referenceSpans(_ entries: [LogEntry]) -> [(UInt64, UInt64)] {
    var spans: [(UInt64, UInt64)] = []
    var previous: LogEntry?
    for entry in entries {
      let startsNew =
        previous.map { !entry.events.isEmpty || !$0.events.isEmpty || $0.animated != entry.animated } ?? true
      if startsNew {
        spans.append((entry.version - 1, entry.version))
      } else {
        spans[spans.count - 1].1 = entry.version
      }
      previous = entry
    }
    return spans
  }
}
