import NavEngine
import NavModel
import NavTestSupport
import Testing

/// Fan-out through the engine (PROTOCOL.md §3 Subscribe / WatchActions, §6).
@Suite("Fan-out: snapshot first, true counts, bounded watchers, bounded resume")
struct FanoutTests {
  /// A scene whose state document is about `items` × 4 KiB.
  static func largeScene(
    items: Int, clock: ManualClock = ManualClock(), configure: (inout EngineConfiguration) -> Void = { _ in }
  ) async throws -> SceneEngine {
    let scene = makeScene(clock: clock, configure: configure)
    let titles = (0..<16).map { n in String(repeating: "\(n % 10)", count: 250) }
    var ops: [Op] = []
    for i in 0..<items {
      ops.append(.defineBarButtonItem(BarButtonItem(id: "b\(i)", title: "Button \(i)", possibleTitles: titles)))
    }
    try await scene.commit(Sample.request(ops))
    try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)]))
    return scene
  }

  static func apply(_ messages: [JSONValue], to document: JSONValue) throws -> JSONValue {
    var document = document
    for message in messages where message["kind"] == "update" {
      document = try PatchApplier.apply(try JSONPatch.decode(message["patch"] ?? []), to: document)
    }
    return document
  }

  @Test("§3 Subscribe: every new subscriber's first frame is its snapshot, however many writes come before it reads")
  func snapshotFirstUnderWrites() async throws {
    let scene = try await Self.largeScene(items: 8)
    var subscribers: [TestSubscriber] = []
    for round in 0..<20 {
      let s = TestSubscriber(id: UInt64(round + 1), queueLimit: 4096)
      try await scene.subscribe(s.subscriber, view: round % 2 == 0 ? .state : .layout(.defaults), sinceVersion: nil)
      subscribers.append(s)
      for i in 0..<5 { try await scene.commit(Sample.request([Sample.title("root", "R\(round) \(i)")])) }
    }
    let (final, version) = await scene.snapshot()
    for (i, s) in subscribers.enumerated() {
      let messages = try s.pull()
      #expect(messages.first?["kind"] == "snapshot", "subscriber \(i) started with \(messages.first?["kind"] ?? nil)")
      #expect(messages.last?["toVersion"] == .number(Double(version)))
      let view: DocumentView = i % 2 == 0 ? .state : .layout(.defaults)
      if view == .state {
        // The state snapshot alone is over the queue limit: every later update is coalesced.
        #expect(messages.count == 2, "the snapshot and one coalesced update")
        #expect(messages.last?["coalesced"] == true)
        #expect(messages.last?["fromVersion"] == messages.first?["version"])
      }
      #expect(try Self.apply(messages, to: messages[0]["document"]!) == view.document(of: final))
    }
  }

  @Test("§6 a subscriber that does not read holds at most its queue limit of frames, however many versions pass")
  func nonReaderBounded() async throws {
    let scene = try await Self.largeScene(items: 4)
    let slow = TestSubscriber(id: 1, queueLimit: 8192)
    try await scene.subscribe(slow.subscriber, view: .state, sinceVersion: nil)
    let snapshotBytes = slow.subscriber.pendingBytes
    for i in 0..<300 {
      try await scene.commit(Sample.request([Sample.title("root", "T\(i)")]))
      #expect(slow.subscriber.pendingBytes <= max(8192, snapshotBytes))
    }
    let messages = try slow.pull()
    #expect(messages.map { $0["kind"] } == ["snapshot", "update"])
    #expect(try Self.apply(messages, to: messages[0]["document"]!) == (await scene.snapshot()).state.json)
  }

  @Test("§6 a subscriber pulled from another thread while versions are published ends exact, in order, no repeat")
  func pullWhilePublishing() async throws {
    let scene = try await Self.largeScene(items: 2)
    let s = TestSubscriber(id: 1, queueLimit: 2048)
    try await scene.subscribe(s.subscriber, view: .layout(LayoutMetrics(width: 320)), sinceVersion: nil)
    let writer = Task {
      defer { s.finishWakes() }
      for i in 0..<2000 { try await scene.commit(Sample.request([Sample.title("root", "Title \(i)")])) }
    }
    var document: JSONValue?
    var version: UInt64 = 0
    func take(_ messages: [JSONValue]) throws {
      for message in messages {
        if message["kind"] == "snapshot" {
          #expect(document == nil, "one snapshot, first")
          document = message["document"]
          version = UInt64(message["version"]?.numberValue ?? 0)
          continue
        }
        #expect(message["fromVersion"] == .number(Double(version)), "no gap, no repeat")
        document = try Self.apply([message], to: try #require(document))
        version = UInt64(message["toVersion"]?.numberValue ?? 0)
      }
    }
    // Pull when woken, as a connection does: no polling, so this task never spins on the
    // cooperative pool while the writer publishes. The loop ends when the writer is done.
    for await _ in s.wakes { try take(try s.pull()) }
    try await writer.value
    try take(try s.pull())
    #expect(version == 2002)
    #expect(document == DocumentView.layout(LayoutMetrics(width: 320)).document(of: (await scene.snapshot()).state))
  }

  @Test("Counts are derived from membership: true after seeded churn with cancels, drops during publish and stalls")
  func countsAfterChurn() async throws {
    let seed = SplitMix64.testSeed(default: 20_261_130)
    var random = SplitMix64(seed: seed)
    let scene = makeScene { $0.maxSubscribersPerScene = 16 }
    try await scene.commit(Sample.request([.push(Sample.item("root"), animated: false)]))
    try await scene.commit(Sample.request([Sample.button("b")]))
    try await scene.commit(Sample.request([.setToolbarItems(["b"], animated: false)]))
    let views: [DocumentView] = [.state, .layout(.defaults), .layout(LayoutMetrics(width: 320))]
    var live: [UInt64: TestSubscriber] = [:]
    var watchers: [UInt64: TestSubscriber] = [:]
    var nextID: UInt64 = 1
    for cycle in 0..<3000 {
      switch random.next() % 7 {
      case 0, 1:
        let s = TestSubscriber(id: nextID, queueLimit: 2048)
        nextID += 1
        let view = views[Int(random.next() % 3)]
        do {
          try await scene.subscribe(s.subscriber, view: view, sinceVersion: nil)
          live[s.subscriber.id] = s
        } catch {
          #expect(
            live.count + watchers.count == 16,
            "seed \(seed) cycle \(cycle): refused with \(live.count) subscribers and \(watchers.count) watchers")
        }
      case 2:
        // The connection closes (peer gone, or the loop's stall timer): the source is cancelled.
        if let id = live.keys.sorted().randomElement(using: &random) {
          live.removeValue(forKey: id)?.subscriber.cancel()
        }
      case 3:
        let w = TestSubscriber(id: nextID, queueLimit: 512)
        nextID += 1
        do {
          try await scene.watchActions(w.subscriber)
          watchers[w.subscriber.id] = w
        } catch {
          // §9.12: watchers count toward maxSubscribersPerScene too.
          #expect(live.count + watchers.count == 16, "seed \(seed) cycle \(cycle): watcher refused early")
        }
        if let id = watchers.keys.sorted().randomElement(using: &random), random.next() % 2 == 0 {
          watchers.removeValue(forKey: id)?.subscriber.cancel()
        }
      case 4:
        // Cancelled while a publish is in flight: dropped during publish.
        if let id = live.keys.sorted().randomElement(using: &random) {
          let s = live.removeValue(forKey: id)!
          async let commit = scene.mutate(Sample.request([Sample.title("root", "C\(cycle)")]))
          s.subscriber.cancel()
          _ = await commit
        }
      case 5:
        _ = try await scene.activate("b")
      default:
        try await scene.commit(Sample.request([Sample.title("root", "T\(cycle)")]))
        for s in live.values where random.next() % 2 == 0 { _ = try s.pull() }
      }
      let total = await scene.subscriberTotal
      #expect(total == live.count + watchers.count, "seed \(seed) cycle \(cycle)")
    }
    for s in live.values { s.subscriber.cancel() }
    for w in watchers.values { w.subscriber.cancel() }
    #expect(await scene.subscriberTotal == 0, "seed \(seed)")
    // Every slot is free again.
    for id in 0..<16 {
      try await scene.subscribe(TestSubscriber(id: 100_000 + UInt64(id)).subscriber, view: .state, sinceVersion: nil)
    }
    #expect(await scene.summary.subscribers == 16)
  }

  @Test("§3 WatchActions: the first frame says the watch is active; Activate counts only watchers that queued it")
  func watcherBoundedAndTold() async throws {
    let scene = makeScene()
    try await scene.commit(
      Sample.request([
        .defineBarButtonItem(BarButtonItem(id: "go", title: "Go", tag: 3, action: "app.go")),
        .push(NavigationItem(id: "root", title: "Root", rightBarButtonItems: ["go"]), animated: false),
      ]))
    let reader = TestSubscriber(id: 1, queueLimit: 1 << 20)
    let stuck = TestSubscriber(id: 2, queueLimit: 1024)
    try await scene.watchActions(reader.subscriber)
    try await scene.watchActions(stuck.subscriber)
    #expect(try reader.pull() == [["kind": "watching", "scene": "main", "version": 1]])
    var counts: [Int] = []
    for _ in 0..<1000 { counts.append(try await scene.activate("go").watchers) }
    #expect(stuck.subscriber.pendingBytes <= 1024)
    let readerFrames = try reader.pull()
    #expect(readerFrames.count == 1000)
    #expect(
      readerFrames.first
        == ["kind": "activation", "scene": "main", "item": "go", "action": "app.go", "tag": 3, "version": 1])
    let stuckFrames = try stuck.pull()
    #expect(stuckFrames.first?["kind"] == "watching")
    let activations = stuckFrames.filter { $0["kind"] == "activation" }.count
    #expect(activations > 0 && activations < 1000)
    #expect(
      stuckFrames.last == [
        "kind": "dropped", "scene": "main", "dropped": .number(Double(1000 - activations)), "version": 1,
      ])
    #expect(counts.reduce(0, +) == 1000 + activations, "each reply counts the watchers that really queued it")
  }

  @Test("§6 Resuming: replays when versions × document size fits the budget, else sends a snapshot")
  func resumeBudget() async throws {
    let clock = ManualClock()
    let scene = try await Self.largeScene(items: 4, clock: clock)
    for i in 0..<10 { try await scene.commit(Sample.request([Sample.title("root", "T\(i)")])) }
    let probe = TestSubscriber(id: 1)
    try await scene.subscribe(probe.subscriber, view: .state, sinceVersion: nil)
    let documentBytes = JSONWriter.bytes(try probe.pull()[0]).count
    // The same scene with a budget just under and just at 10 versions × the document.
    for (budget, expected) in [(10 * documentBytes - 200, "snapshot"), (10 * documentBytes + 200, "update")] {
      let fresh = try await Self.largeScene(items: 4, clock: clock) { $0.resumeBudgetBytes = budget }
      for i in 0..<10 { try await fresh.commit(Sample.request([Sample.title("root", "T\(i)")])) }
      let s = TestSubscriber(id: 2)
      try await fresh.subscribe(s.subscriber, view: .state, sinceVersion: 2)
      let messages = try s.pull()
      #expect(messages.first?["kind"] == .string(expected), "budget \(budget), document \(documentBytes) bytes")
    }
  }
}
