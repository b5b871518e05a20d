import NavModel
import NavTestSupport
import Testing

@testable import NavEngine

extension SceneEngine {
  /// How many times `view`'s pending spans were computed (nil: nobody follows it).
  func computations(of view: DocumentView) -> Int? { core.groups[view]?.computations }

  /// Bytes of documents the scene's cache holds, and its bound.
  func layoutCacheBytes() -> (held: Int, limit: Int) { (core.layoutCache.bytes, core.layoutCache.limit) }

  /// How many views hold their live document.
  func liveViews() -> Int { core.groups.values.count(where: \.isLive) }

  /// How many spans `view` holds not yet computed (nil: nobody follows it).
  func pendingSpans(of view: DocumentView) -> Int? { core.groups[view]?.withGroup(\.pending.count) }
}

/// A view's layout is computed when one of its subscribers pulls, once for all of them
/// (PROTOCOL.md §6, `ViewChannel`).
@Suite("Per-width work only where someone reads")
struct PullDrivenLayoutTests {
  static func width(_ width: Double) -> DocumentView { .layout(LayoutMetrics(width: width)) }

  /// A scene with a screen and two bar button items.
  static func scene(configure: (inout EngineConfiguration) -> Void = { _ in }) async throws -> SceneEngine {
    let scene = makeScene(configure: configure)
    try await scene.commit(
      Sample.request([
        Sample.button("a"), Sample.button("b"),
        .push(NavigationItem(id: "root", title: "Root", rightBarButtonItems: ["a", "b"]), animated: false),
      ]))
    return scene
  }

  @Test("§6 a width whose subscribers do not pull costs no layout work per commit; one that pulls, one per commit")
  func unreadWidthDoesNoWork() async throws {
    let scene = try await Self.scene()
    let reader = TestSubscriber(id: 1)
    let idle = TestSubscriber(id: 2)
    try await scene.subscribe(reader.subscriber, view: Self.width(320), sinceVersion: nil)
    try await scene.subscribe(idle.subscriber, view: Self.width(1024), sinceVersion: nil)
    _ = try reader.pull()
    let before = await scene.computations(of: Self.width(1024))
    for i in 0..<50 {
      try await scene.commit(Sample.request([Sample.title("root", "Title \(i)")]))
      _ = try reader.pull()
    }
    #expect(await scene.computations(of: Self.width(1024)) == before, "nobody pulled width 1024")
    #expect(await scene.computations(of: Self.width(320)) == (before ?? 0) + 50, "one computation per pulled commit")
    #expect((await scene.pendingSpans(of: Self.width(1024)) ?? 0) > 0)
    // When it pulls at last, it is brought up to date from the scene's state, exactly.
    let messages = try idle.pull()
    let document = try FanoutTests.apply(Array(messages.dropFirst()), to: messages[0]["document"]!)
    #expect(document == Self.width(1024).document(of: await scene.snapshot().state))
  }

  @Test("§6 a width's pending spans are bounded: past subscriberQueueBytes they become one coalesced update")
  func pendingSpansAreBounded() async throws {
    let scene = try await Self.scene { $0.subscriberQueueBytes = 4096 }
    let idle = TestSubscriber(id: 1, queueLimit: 4096)
    try await scene.subscribe(idle.subscriber, view: Self.width(500), sinceVersion: nil)
    let snapshot = try idle.pull()
    for i in 0..<2000 { try await scene.commit(Sample.request([Sample.title("root", "Title \(i)")])) }
    let pending = await scene.pendingSpans(of: Self.width(500)) ?? 0
    #expect(pending > 0 && pending < 100, "\(pending) spans held")
    let messages = try idle.pull()
    #expect(messages.contains { $0["coalesced"] == true })
    #expect(messages.last?["toVersion"] == 2001)
    let document = try FanoutTests.apply(messages, to: snapshot[0]["document"]!)
    #expect(document == Self.width(500).document(of: await scene.snapshot().state))
  }

  @Test("§6 every subscriber of a width shares one computation and the same bytes")
  func subscribersShareOneComputation() async throws {
    let scene = try await Self.scene()
    let view = Self.width(768)
    let subscribers = (1...8).map { TestSubscriber(id: UInt64($0)) }
    for s in subscribers {
      try await scene.subscribe(s.subscriber, view: view, sinceVersion: nil)
      _ = s.subscriber.pull()
    }
    let before = await scene.computations(of: view) ?? 0
    for round in 0..<5 {
      try await scene.commit(Sample.request([Sample.title("root", "Round \(round)")]))
      let bytes = subscribers.map { $0.subscriber.pull() }
      #expect(Set(bytes).count == 1, "round \(round): the same bytes for all")
      #expect(!bytes[0].isEmpty)
      #expect(await scene.computations(of: view) == before + round + 1, "round \(round): one computation")
    }
  }

  @Test("§6 seeded random commits and pulls over several widths: every subscriber's patches lead to a fresh layout")
  func randomInterleavings() async throws {
    for seed: UInt64 in 1...6 {
      var rng = SplitMix64(seed: seed)
      var mutations = RandomMutations(seed: seed &* 7919)
      let scene = makeScene()
      let views: [DocumentView] = [Self.width(320), Self.width(768), Self.width(1024), .layout(.defaults)]
      var subscribers: [(TestSubscriber, DocumentView)] = []
      var documents: [JSONValue?] = []
      for index in 0..<8 {
        let view = views[index % views.count]
        let s = TestSubscriber(id: UInt64(index + 1), queueLimit: Bool.random(using: &rng) ? 2048 : 1 << 20)
        try await scene.subscribe(s.subscriber, view: view, sinceVersion: nil)
        subscribers.append((s, view))
        documents.append(nil)
      }
      func pull(_ index: Int) throws {
        var messages = try subscribers[index].0.pull()
        if documents[index] == nil, let first = messages.first {
          documents[index] = first["document"]
          messages.removeFirst()
        }
        guard let document = documents[index] else { return }
        documents[index] = try FanoutTests.apply(messages, to: document)
      }
      for _ in 0..<150 {
        let state = await scene.snapshot().state
        _ = await scene.commitGroup(
          (0..<Int.random(in: 1...3, using: &rng)).map { _ in Sample.request(mutations.ops(seeing: state)) })
        for index in subscribers.indices where Int.random(in: 0..<3, using: &rng) == 0 { try pull(index) }
      }
      let state = await scene.snapshot().state
      for index in subscribers.indices {
        try pull(index)
        #expect(documents[index] == subscribers[index].1.document(of: state), "seed \(seed), subscriber \(index)")
      }
    }
  }

  @Test("§6 many distinct widths: the scene's documents stay under layoutCacheBytes, and evicted widths stay exact")
  func cacheIsBounded() async throws {
    let limit = 8 * 1024
    let scene = try await Self.scene { $0.layoutCacheBytes = limit }
    var subscribers: [(TestSubscriber, DocumentView, JSONValue)] = []
    for index in 0..<60 {
      let view = Self.width(Double(300 + index))
      let s = TestSubscriber(id: UInt64(index + 1))
      try await scene.subscribe(s.subscriber, view: view, sinceVersion: nil)
      subscribers.append((s, view, try s.pull()[0]["document"]!))
      let (held, bound) = await scene.layoutCacheBytes()
      #expect(held <= bound, "after \(index + 1) widths: \(held) bytes held")
    }
    #expect(await scene.liveViews() < 60, "some widths were evicted")
    for round in 0..<4 {
      try await scene.commit(Sample.request([Sample.title("root", String(repeating: "w", count: round * 40))]))
      let state = await scene.snapshot().state
      for index in subscribers.indices {
        subscribers[index].2 = try FanoutTests.apply(try subscribers[index].0.pull(), to: subscribers[index].2)
        #expect(subscribers[index].2 == subscribers[index].1.document(of: state), "round \(round), width \(index)")
        let (held, bound) = await scene.layoutCacheBytes()
        #expect(held <= bound, "round \(round): \(held) bytes held")
      }
    }
  }

  @Test("§6 a width is weighed at what it holds resident, not its encoded document, whether or not it had a snapshot")
  func widthIsWeighedResident() async throws {
    let scene = try await Self.scene()
    let s = TestSubscriber(id: 1)
    try await scene.subscribe(s.subscriber, view: Self.width(400), sinceVersion: nil)
    let frame = s.subscriber.pull()
    let (weight, _) = await scene.layoutCacheBytes()
    #expect(weight > 2 * frame.count, "one width: \(weight) bytes, its snapshot frame \(frame.count)")
    // A resume sends no snapshot: the width still weighs its document.
    let version = await scene.snapshot().version
    let resumed = TestSubscriber(id: 2)
    try await scene.subscribe(resumed.subscriber, view: Self.width(500), sinceVersion: version)
    let (both, _) = await scene.layoutCacheBytes()
    #expect(both - weight > weight / 2, "a resumed width: \(both - weight) bytes")
  }

  @Test("§6 a bound of three widths' resident cost keeps at most three widths live, however many subscribe")
  func boundHoldsResidentWidths() async throws {
    let probe = try await Self.scene()
    let first = TestSubscriber(id: 1)
    try await probe.subscribe(first.subscriber, view: Self.width(300), sinceVersion: nil)
    let (weight, _) = await probe.layoutCacheBytes()
    let scene = try await Self.scene { $0.layoutCacheBytes = 3 * weight + weight / 2 }
    var subscribers: [TestSubscriber] = []
    for index in 0..<20 {
      let s = TestSubscriber(id: UInt64(index + 1))
      try await scene.subscribe(s.subscriber, view: Self.width(Double(300 + index)), sinceVersion: nil)
      subscribers.append(s)
      let (held, bound) = await scene.layoutCacheBytes()
      #expect(held <= bound, "after \(index + 1) widths: \(held) bytes held")
      #expect(await scene.liveViews() <= 3, "after \(index + 1) widths")
    }
  }
}
