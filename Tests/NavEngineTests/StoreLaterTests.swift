import Dispatch
import NavModel
import NavTestSupport
import Testing

@testable import NavEngine

/// A group the store finishes later (its result delivered to the scene as a job on its
/// executor, from another thread) ends exactly as one it finishes at once: the two ways a
/// store answers go through the one commit path.
@Suite("Groups stored later end as groups stored at once do")
struct StoreLaterTests {
  /// An `InMemorySceneStore` that answers every group later, from another thread.
  final class LaterInMemoryStore: SceneStore {
    let inner = InMemorySceneStore()
    func load() throws(StoreError) -> [StoredScene] { try inner.load() }
    func commit(_ records: [CommitRecord], waiter: any StoreWaiter) -> Result<Void, StoreError>? {
      let result = inner.commit(records, waiter: waiter)
      DispatchQueue.global().async { waiter.stored(result!) }
      return nil
    }
  }

  @Test("the volatile and in-memory stores finish at once; the in-memory one fails when told to")
  func whichStoresFinishAtOnce() throws {
    let scene = makeScene()
    #expect(VolatileSceneStore().commit([], waiter: scene) != nil)
    let store = InMemorySceneStore()
    #expect(store.commit([], waiter: scene) != nil)
    store.failNextCommit()
    #expect(store.commit([], waiter: scene).map { (try? $0.get()) == nil } == true)
  }

  @Test(
    "seeded random groups (stale bases, both policies, retried mutation ids, failed stores): same results, states, stored histories"
  )
  func sameAsAwaited() async throws {
    let seed: UInt64 = 0xA7_04CE
    var random = RandomMutations(seed: seed)
    let atOnce = InMemorySceneStore()
    let later = LaterInMemoryStore()
    let clock = ManualClock()
    var configuration = EngineConfiguration()
    configuration.snapshotInterval = 16
    configuration.opLogCapacity = 24
    configuration.rememberedMutationIds = 12
    let scenes = [atOnce as any SceneStore, later].map { store in
      SceneEngine(
        name: "main", epoch: "00000000000000aa", configuration: configuration, store: store, now: { clock.now })
    }
    var seen = SceneState.empty
    var version: UInt64 = 0
    var kinds: Set<String> = []
    var earlier: [MutationRequest] = []
    for round in 0..<150 {
      var group: [MutationRequest] = []
      for _ in 0..<Int.random(in: 1...5, using: &random.rng) {
        if let sent = earlier.last, random.chance(0.1) {
          group.append(sent)  // a retry: replayed from memory when its id was remembered
          continue
        }
        let base = random.chance(0.5) ? UInt64.random(in: 0...version, using: &random.rng) : nil
        group.append(
          MutationRequest(
            ops: random.chance(0.05) ? [] : random.ops(seeing: seen), baseVersion: base,
            mutationId: random.chance(0.4) ? "m\(Int.random(in: 0..<20, using: &random.rng))" : nil,
            policy: random.pick(ConflictPolicy.allCases), client: random.pick(["a", "b"])))
      }
      earlier += group.filter { $0.mutationId != nil }
      if random.chance(0.1) {
        atOnce.failNextCommit()
        later.inner.failNextCommit()
      }
      let first = await scenes[0].commitGroup(group)
      let second = await scenes[1].commitGroup(group)
      #expect(first == second, "seed \(seed) round \(round): results")
      for result in first {
        switch result {
        case .success(let outcome): kinds.insert(outcome.replayed ? "replayed" : "committed")
        case .failure(let error): kinds.insert("\(error.code)")
        }
      }
      let (state, stateVersion) = await scenes[0].snapshot()
      let other = await scenes[1].snapshot()
      #expect(state == other.state && stateVersion == other.version, "seed \(seed) round \(round): state")
      (seen, version) = (state, stateVersion)
    }
    #expect(version > 50, "seed \(seed): most groups committed")
    #expect(
      kinds.isSuperset(of: ["committed", "replayed", "storageFailed", "conflict", "invalidMutation"]),
      "seed \(seed): \(kinds)")
    let (stored, storedLater) = try (atOnce.load(), later.load())
    #expect(stored.map(History.init) == storedLater.map(History.init), "seed \(seed): stored histories")
  }

  /// What a store holds of a scene, comparable.
  struct History: Equatable {
    struct Entry: Equatable {
      var version: UInt64
      var client: String
      var mutationId: String?
      var ops: [Op]
    }
    struct Remembered: Equatable {
      var client: String
      var mutationId: String
      var opsDigest: UInt64
      var outcome: MutationOutcome
    }
    var name: String
    var epoch: String
    var snapshotVersion: UInt64
    var snapshot: SceneState
    var log: [Entry]
    var mutationIds: [Remembered]

    init(_ scene: StoredScene) {
      (name, epoch, snapshotVersion, snapshot) = (scene.name, scene.epoch, scene.snapshotVersion, scene.snapshot)
      log = scene.log.map { Entry(version: $0.version, client: $0.client, mutationId: $0.mutationId, ops: $0.ops) }
      mutationIds = scene.mutationIds.map {
        Remembered(client: $0.client, mutationId: $0.mutationId, opsDigest: $0.opsDigest, outcome: $0.outcome)
      }
    }
  }
}
