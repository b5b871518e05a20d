import NavModel
import NavTestSupport
import Testing

@testable import NavEngine

/// A failed mutation leaves no trace (CONFLICTS.md V2, I3; PROTOCOL.md §5 "A
/// failed call changes nothing"): no scene, no version, no remembered id, no
/// stored record, whatever the error.
@Suite("Failed mutations leave no trace")
struct FailedMutationTests {
  /// One request per error class, with the code it must fail with, on an empty or any scene.
  static func failures() -> [(name: String, code: NavError.Code, request: MutationRequest)] {
    let long = String(repeating: "x", count: 300)
    return [
      ("no ops", .invalidMutation, Sample.request([], mutationId: "f1")),
      ("empty mutationId", .invalidMutation, Sample.request([Sample.button("b")], mutationId: "")),
      (
        "oversized mutationId", .limitExceeded,
        Sample.request([Sample.button("b")], mutationId: String(repeating: "m", count: 129))
      ),
      ("oversized title", .limitExceeded, Sample.request([Sample.button("b", title: long)], mutationId: "f2")),
      ("unknown item", .itemNotFound, Sample.request([Sample.title("nothing", "x")], mutationId: "f3")),
      (
        "duplicate item", .duplicateItem,
        Sample.request([.setStack([Sample.item("d"), Sample.item("d")], animated: false)], mutationId: "f4")
      ),
      (
        "already on stack", .itemAlreadyOnStack,
        Sample.request(
          [.push(Sample.item("p"), animated: false), .push(Sample.item("p"), animated: false)], mutationId: "f5")
      ),
      ("pop of the root", .cannotPopRoot, Sample.request([.pop(expectTop: nil, animated: false)], mutationId: "f6")),
      ("base ahead", .invalidMutation, Sample.request([Sample.button("b")], base: 1_000, mutationId: "f7")),
      (
        "conflict", .conflict,
        MutationRequest(
          ops: [Sample.button("b")], baseVersion: 0, epoch: "0000000000000000", mutationId: "f8",
          policy: .failOnConflict, client: "a")
      ),
    ]
  }

  @Test("V2 every error class on a new scene: no scene, no slot used, nothing stored")
  func newSceneErrorClasses() async throws {
    let store = InMemorySceneStore()
    var configuration = EngineConfiguration()
    configuration.maxScenes = 2
    let engine = Engine(configuration: configuration, store: store)
    for (name, code, request) in Self.failures() {
      for _ in 0..<3 {
        let result = await engine.mutate(scene: "fresh", request)
        #expect(result.failureValue?.code == code, "\(name): \(result)")
      }
      #expect(engine.sceneNames == ["main"], "\(name)")
      #expect(throws: NavError.self, "\(name)") { try engine.scene("fresh") }
    }
    store.failNextCommit(with: StoreError(.full, "disk full"))
    let stored = await engine.mutate(scene: "fresh", Sample.request([Sample.button("b")], mutationId: "s"))
    #expect(stored.failureValue?.code == .storageFailed)
    #expect(engine.sceneNames == ["main"])
    #expect(try store.load().isEmpty)
    // None of those used up the one free slot: this creation succeeds, the next is refused.
    #expect(
      try await engine.mutate(scene: "fresh", Sample.request([Sample.button("b")], mutationId: "s")).get()
        == .init(version: 1, overwritten: [], baseVersionExpired: false, replayed: false, created: true))
    #expect(engine.sceneNames == ["fresh", "main"])
    let refused = await engine.mutate(scene: "other", Sample.request([Sample.button("b")]))
    #expect(refused.failureValue?.limit == "maxScenes")
    let badName = await engine.mutate(scene: "bad name", Sample.request([Sample.button("b")]))
    #expect(badName.failureValue?.field == "scene")
    #expect(engine.sceneNames == ["fresh", "main"])
  }

  @Test("V2 I3 every error class on an existing scene: same version and state, id not remembered, nothing stored")
  func existingSceneErrorClasses() async throws {
    let store = InMemorySceneStore()
    let engine = Engine(store: store)
    _ = try await engine.mutate(scene: "s", Sample.request([.push(Sample.item("root"), animated: false)])).get()
    let scene = try engine.scene("s")
    let before = await scene.snapshot()
    let commits = store.commitCount
    for (name, code, request) in Self.failures() {
      let result = await engine.mutate(scene: "s", request)
      #expect(result.failureValue?.code == code, "\(name): \(result)")
      let after = await scene.snapshot()
      #expect(after.version == before.version && after.state == before.state, "\(name)")
      if let id = request.mutationId {
        #expect(await scene.memory.lookup(.init(client: request.client, mutationId: id)) == nil, "\(name)")
      }
    }
    #expect(store.commitCount == commits)
    #expect(await scene.log.count == 1)
  }

  @Test("V2 seeded random mix of successes and every error class across new scenes")
  func randomMix() async throws {
    let seed = SplitMix64.testSeed(default: 20_261_130)
    var rng = SplitMix64(seed: seed)
    let store = InMemorySceneStore()
    let engine = Engine(store: store)
    let failures = Self.failures()
    var versions: [String: UInt64] = ["main": 0]
    var remembered: Set<String> = []
    var failedIds = ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"]
    for step in 0..<300 {
      let name = ["main", "n1", "n2", "n3"][Int.random(in: 0..<4, using: &rng)]
      let roll = Int.random(in: 0..<(failures.count + 4), using: &rng)
      if roll < failures.count {
        let (kind, code, request) = failures[roll]
        let result = await engine.mutate(scene: name, request)
        #expect(result.failureValue?.code == code, "seed \(seed) step \(step) \(kind): \(result)")
      } else if roll == failures.count {
        store.failNextCommit()
        let result = await engine.mutate(
          scene: name, Sample.request([Sample.button("s\(step)")], mutationId: "x\(step)"))
        #expect(result.failureValue?.code == .storageFailed, "seed \(seed) step \(step)")
        failedIds.append("x\(step)")
      } else {
        let id = "ok\(step)"
        let outcome = try await engine.mutate(scene: name, Sample.request([Sample.button("s\(step)")], mutationId: id))
          .get()
        versions[name, default: 0] += 1
        remembered.insert("\(name)/\(id)")
        #expect(outcome.version == versions[name], "seed \(seed) step \(step)")
      }
      #expect(engine.sceneNames == versions.keys.sorted(), "seed \(seed) step \(step)")
    }
    for (name, version) in versions {
      let scene = try engine.scene(name)
      #expect(await scene.snapshot().version == version, "seed \(seed) \(name)")
      for id in failedIds {
        #expect(await scene.memory.lookup(.init(client: "a", mutationId: id)) == nil, "seed \(seed) \(name) \(id)")
      }
    }
    let stored = try store.load()
    #expect(stored.map(\.name) == versions.keys.filter { $0 != "main" || versions["main"]! > 0 }.sorted())
    for scene in stored {
      #expect(scene.version == versions[scene.name], "seed \(seed) \(scene.name)")
      #expect(Set(scene.mutationIds.map { "\(scene.name)/\($0.mutationId)" }).isSubset(of: remembered))
    }
  }

  @Test("V2 concurrent creations of one scene: it exists exactly when one of them committed")
  func concurrentCreations() throws {
    let held = HeldScene()
    var configuration = EngineConfiguration()
    configuration.maxScenes = 2
    let engine = Engine(configuration: configuration, store: held.store, executor: held.executor)
    let submit = { (scene: String, request: MutationRequest, index: Int) in
      engine.submit(scene: scene, request, completion: held.answers.completion(index))
      held.executor.runAll()
    }
    // A creation in flight holds the last free slot ...
    submit("new", Sample.request([Sample.button("a")]), 0)
    #expect(held.store.groups == [[1]])
    #expect(engine.sceneNames == ["main"], "not visible while in flight")
    submit("other", Sample.request([Sample.button("a")]), 1)
    #expect(held.answers[1]?.failureValue?.limit == "maxScenes", "refused at once")
    // ... which a second request to the same name shares (it waits for the first one's group); it fails on its own.
    submit("new", Sample.request([]), 2)
    held.finish(failing: StoreError(.io, "I/O error"))
    #expect(held.answers[0]?.failureValue?.code == .storageFailed)
    #expect(held.answers[2]?.failureValue?.code == .invalidMutation)
    #expect(engine.sceneNames == ["main"])
    // The slot was given back.
    submit("other", Sample.request([Sample.button("a")]), 3)
    held.finish()
    #expect(try held.answers[3]?.get().version == 1)
    #expect(engine.sceneNames == ["main", "other"])
  }
}
