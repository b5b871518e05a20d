import NavModel
import NavTestSupport
import Testing

@testable import NavEngine

/// `Subscribe` with `waitForScene` (PROTOCOL.md §9.21): a subscriber of a scene
/// that does not exist yet starts with the empty document at version 0 and
/// follows the scene from its first version; waiting creates no scene, is
/// bounded by `maxWaitedScenes`, and is released when the subscriber leaves.
@Suite("§9.21 waiting for a scene")
struct WaitForSceneTests {
  /// The documents a subscriber holds after applying every frame it pulled.
  static func follow(_ messages: [JSONValue], from document: JSONValue? = nil) throws -> JSONValue? {
    var document = document
    for message in messages {
      if message["kind"] == "snapshot" { document = message["document"] }
      if message["kind"] == "update", let current = document {
        document = try PatchApplier.apply(try JSONPatch.decode(message["patch"] ?? []), to: current)
      }
    }
    return document
  }

  /// Slots the engine holds: scenes, in-flight creations and waited names.
  static func slotCount(_ engine: Engine) -> Int { engine.slots.withLock { $0.count } }

  /// Names subscribers wait for that do not exist.
  static func waitedNames(_ engine: Engine) -> Set<String> {
    engine.slots.withLock { Set($0.filter(\.value.isWaited).keys) }
  }

  @Test("§9.21 the empty document at version 0 first, then the creating mutation as the update from 0 to 1")
  func followsCreation() async throws {
    let engine = Engine()
    let waiter = TestSubscriber(id: 1)
    try await engine.subscribe(waitingFor: "late", waiter.subscriber, view: .state, sinceVersion: nil)
    let first = try waiter.pull()
    #expect(first.count == 1)
    #expect(first[0]["kind"] == "snapshot" && first[0]["version"] == 0)
    #expect(first[0]["document"] == SceneState.empty.json)
    let epoch = try #require(first[0]["epoch"]?.stringValue)
    // Waiting created nothing anyone can see.
    #expect(engine.sceneNames == ["main"])
    #expect(throws: NavError.self) { try engine.scene("late") }
    #expect(engine.waitedScenes.count == 1)

    let outcome = try await engine.mutate(scene: "late", Sample.request([.push(Sample.item("root"), animated: true)]))
      .get()
    #expect(outcome.version == 1)
    let updates = try waiter.pull()
    #expect(updates.count == 1)
    #expect(updates[0]["kind"] == "update" && updates[0]["fromVersion"] == 0 && updates[0]["toVersion"] == 1)
    #expect(updates[0]["animated"] == true)
    let scene = try engine.scene("late")
    #expect(scene.epoch == epoch, "the snapshot's epoch is the history the creation starts")
    #expect(try Self.follow(first + updates) == (await scene.snapshot()).state.json)
    #expect(engine.sceneNames == ["late", "main"])
    #expect(engine.waitedScenes.isEmpty)
  }

  @Test("§9.21 the layout view waits too: its first update is the diff from the empty layout")
  func layoutView() async throws {
    let engine = Engine()
    let view = DocumentView.layout(LayoutMetrics(width: 320))
    let waiter = TestSubscriber(id: 1)
    try await engine.subscribe(waitingFor: "late", waiter.subscriber, view: view, sinceVersion: nil)
    let first = try waiter.pull()
    #expect(first.first?["view"] == "layout@320.0")
    #expect(first.first?["document"] == view.document(of: .empty))
    _ = try await engine.mutate(scene: "late", Sample.request([.push(Sample.item("root"), animated: false)])).get()
    let state = await (try engine.scene("late")).snapshot().state
    #expect(try Self.follow(first + waiter.pull()) == view.document(of: state))
  }

  @Test("§9.21 waitForScene on a scene that exists is a plain subscription")
  func existingScene() async throws {
    let engine = Engine()
    _ = try await engine.mutate(scene: "s", Sample.request([.push(Sample.item("root"), animated: false)])).get()
    let waiter = TestSubscriber(id: 1)
    try await engine.subscribe(waitingFor: "s", waiter.subscriber, view: .state, sinceVersion: nil)
    let first = try waiter.pull()
    #expect(first.first?["version"] == 1)
    #expect(first.first?["epoch"]?.stringValue == (try engine.scene("s")).epoch)
    #expect(engine.waitedScenes.isEmpty)
  }

  @Test("§9.21 V2 failed mutations to a waited scene leave no trace: nothing sent, no scene, nothing stored")
  func failedMutationsLeaveNoTrace() async throws {
    let store = InMemorySceneStore()
    let engine = Engine(store: store)
    let waiter = TestSubscriber(id: 1)
    try await engine.subscribe(waitingFor: "late", waiter.subscriber, view: .state, sinceVersion: nil)
    let first = try waiter.pull()
    for (name, code, request) in FailedMutationTests.failures() {
      let result = await engine.mutate(scene: "late", request)
      #expect(result.failureValue?.code == code, "\(name): \(result)")
    }
    store.failNextCommit(with: StoreError(.full, "disk full"))
    let stored = await engine.mutate(scene: "late", Sample.request([Sample.button("b")], mutationId: "s"))
    #expect(stored.failureValue?.code == .storageFailed)
    #expect(engine.sceneNames == ["main"])
    #expect(try store.load().isEmpty)
    #expect(try waiter.pull().isEmpty, "no frame for a version that was never committed")
    let scene = try #require(engine.waitedScenes.first)
    #expect(await scene.snapshot().version == 0)
    #expect(await scene.memory.lookup(.init(client: "a", mutationId: "s")) == nil)
    // The same retried mutation now commits; the waiter follows it from version 0.
    _ = try await engine.mutate(scene: "late", Sample.request([Sample.button("b")], mutationId: "s")).get()
    let updates = try waiter.pull()
    #expect(updates.map { $0["toVersion"] } == [1])
    #expect(try Self.follow(first + updates) == (await engine.scene("late").snapshot()).state.json)
  }

  @Test("§9.21 resuming with the waited snapshot's version and epoch gets the updates since, not a snapshot")
  func resumeFromWaitedSnapshot() async throws {
    let engine = Engine()
    let holder = TestSubscriber(id: 1)
    try await engine.subscribe(waitingFor: "late", holder.subscriber, view: .state, sinceVersion: nil)
    let epoch = try #require(try holder.pull().first?["epoch"]?.stringValue)
    _ = try await engine.mutate(scene: "late", Sample.request([.push(Sample.item("root"), animated: false)])).get()
    let resumed = TestSubscriber(id: 2)
    try await engine.subscribe(waitingFor: "late", resumed.subscriber, view: .state, sinceVersion: 0, epoch: epoch)
    let frames = try resumed.pull()
    #expect(frames.map { $0["kind"] } == ["update"])
    #expect(frames.first?["fromVersion"] == 0)
  }

  @Test("§9.12 maxWaitedScenes: waited names are bounded apart from maxScenes, and a leaving waiter frees its name")
  func waitedScenesBounded() async throws {
    var configuration = EngineConfiguration()
    configuration.maxWaitedScenes = 2
    configuration.maxScenes = 2
    let engine = Engine(configuration: configuration)
    let a1 = TestSubscriber(id: 1)
    let a2 = TestSubscriber(id: 2)
    let b = TestSubscriber(id: 3)
    try await engine.subscribe(waitingFor: "a", a1.subscriber, view: .state, sinceVersion: nil)
    try await engine.subscribe(waitingFor: "a", a2.subscriber, view: .state, sinceVersion: nil)
    try await engine.subscribe(waitingFor: "b", b.subscriber, view: .state, sinceVersion: nil)
    let c = TestSubscriber(id: 4)
    do throws(NavError) {
      try await engine.subscribe(waitingFor: "c", c.subscriber, view: .state, sinceVersion: nil)
      Issue.record("a third waited name was accepted")
    } catch {
      #expect(error.code == .limitExceeded)
      #expect(error.limit == "maxWaitedScenes" && error.max == 2 && error.field == "scene" && error.value == "c")
    }
    // Waiting never keeps a writer from creating a scene: main and x fill maxScenes, not a and b.
    _ = try await engine.mutate(scene: "x", Sample.request([Sample.button("b")])).get()
    let refused = await engine.mutate(scene: "a", Sample.request([Sample.button("b")]))
    #expect(refused.failureValue?.limit == "maxScenes")
    #expect(engine.waitedScenes.count == 2, "a refused creation leaves the waiters waiting")
    // One of a's two waiters leaving keeps the name; the second frees it.
    a1.subscriber.cancel()
    #expect(engine.waitedScenes.count == 2)
    a2.subscriber.cancel()
    #expect(engine.waitedScenes.count == 1)
    try await engine.subscribe(waitingFor: "c", c.subscriber, view: .state, sinceVersion: nil)
    #expect(engine.waitedScenes.count == 2)
  }

  @Test("§9.12 waiting subscribers count toward maxSubscribersPerScene; a refused one holds nothing")
  func subscribersPerWaitedScene() async throws {
    var configuration = EngineConfiguration()
    configuration.maxSubscribersPerScene = 2
    let engine = Engine(configuration: configuration)
    let waiters = (1...3).map { TestSubscriber(id: UInt64($0)) }
    try await engine.subscribe(waitingFor: "late", waiters[0].subscriber, view: .state, sinceVersion: nil)
    try await engine.subscribe(waitingFor: "late", waiters[1].subscriber, view: .layout(.defaults), sinceVersion: nil)
    do throws(NavError) {
      try await engine.subscribe(waitingFor: "late", waiters[2].subscriber, view: .state, sinceVersion: nil)
      Issue.record("a third subscriber was accepted")
    } catch {
      #expect(error.limit == "maxSubscribersPerScene")
    }
    waiters[0].subscriber.cancel()
    waiters[1].subscriber.cancel()
    #expect(engine.waitedScenes.isEmpty)
    #expect(Self.slotCount(engine) == 1)
  }

  @Test("§9.10 a name no mutation could create is SceneNotFound, waiting or not")
  func badNames() async throws {
    let engine = Engine()
    for name in ["", "bad name", String(repeating: "n", count: 65)] {
      do throws(NavError) {
        try await engine.subscribe(waitingFor: name, TestSubscriber(id: 1).subscriber, view: .state, sinceVersion: nil)
        Issue.record("\"\(name)\" was accepted")
      } catch {
        #expect(error.code == .sceneNotFound && error.field == "scene", "\(name): \(error)")
      }
    }
    #expect(Self.slotCount(engine) == 1)
  }

  @Test("§9.21 §6 seeded churn of waiting subscribers, leavers and failed creations leaves nothing behind")
  func churnLeavesNothing() async throws {
    let seed = SplitMix64.testSeed(default: 20_261_130_13)
    print("WaitForSceneTests.churnLeavesNothing seed \(seed) (NAVD_TEST_SEED to replay)")
    var rng = SplitMix64(seed: seed)
    var configuration = EngineConfiguration()
    configuration.maxWaitedScenes = 6
    let engine = Engine(configuration: configuration)
    let names = (0..<10).map { "w\($0)" }
    var open: [(name: String, subscriber: TestSubscriber, view: DocumentView, frames: [JSONValue])] = []
    var created: Set<String> = []
    var nextID: UInt64 = 1
    for step in 0..<4_000 {
      let name = names[Int.random(in: 0..<names.count, using: &rng)]
      let roll = Int.random(in: 0..<100, using: &rng)
      let context = "seed \(seed) step \(step)"
      if roll < 45 {
        let subscriber = TestSubscriber(id: nextID)
        nextID += 1
        let view: DocumentView = Bool.random(using: &rng) ? .state : .layout(LayoutMetrics(width: 375))
        let leavesFirst = roll < 5  // its connection closed before navd registered it
        if leavesFirst { subscriber.subscriber.cancel() }
        let waited = Set(open.map(\.name)).subtracting(created)
        let expectRefusal = !created.contains(name) && !waited.contains(name) && waited.count >= 6
        do throws(NavError) {
          try await engine.subscribe(waitingFor: name, subscriber.subscriber, view: view, sinceVersion: nil)
          #expect(!expectRefusal, "\(context): a waited name past the limit was accepted")
          if !leavesFirst { open.append((name, subscriber, view, [])) }
        } catch {
          #expect(expectRefusal && error.limit == "maxWaitedScenes", "\(context): \(error)")
        }
      } else if roll < 85 {
        if !open.isEmpty {
          let leaving = open.remove(at: Int.random(in: 0..<open.count, using: &rng))
          leaving.subscriber.subscriber.cancel()
        }
      } else if roll < 97 {
        // A creation that fails: nothing for anyone.
        let result = await engine.mutate(scene: name, Sample.request([.pop(expectTop: nil, animated: false)]))
        #expect(result.failureValue?.code == .cannotPopRoot, "\(context)")
      } else {
        _ = try await engine.mutate(scene: name, Sample.request([Sample.button("b\(step)")])).get()
        created.insert(name)
      }
      for i in open.indices { open[i].frames += try open[i].subscriber.pull() }
      let waited = Set(open.map(\.name)).subtracting(created)
      #expect(Self.waitedNames(engine) == waited, "\(context)")
      #expect(engine.sceneNames == (created.union(["main"])).sorted(), "\(context)")
    }
    // Every open subscriber converged to its scene's document.
    for entry in open {
      let scene = try #require(engine.slots.withLock { $0[entry.name]?.scene }, "seed \(seed) \(entry.name)")
      let state = await scene.snapshot().state
      #expect(try Self.follow(entry.frames) == entry.view.document(of: state), "seed \(seed) \(entry.name)")
    }
    for entry in open { entry.subscriber.subscriber.cancel() }
    #expect(engine.waitedScenes.isEmpty, "seed \(seed)")
    #expect(Self.slotCount(engine) == 1 + created.subtracting(["main"]).count, "seed \(seed)")
    for name in created {
      let scene = try engine.scene(name)
      await scene.pruneClosedSubscribers()
      #expect(await scene.subscriberCount == 0, "seed \(seed) \(name)")
    }
  }
}
