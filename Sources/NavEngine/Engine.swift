import Glibc
import NavModel
import Synchronization

/// All scenes of one navd: finds the `SceneEngine` for a name, and creates a
/// scene by its first committed mutation.
///
/// Lookup is synchronous (a mutex over a dictionary) so the event loop can
/// route a call to its scene's actor without a hop of its own. Every scene runs
/// on the engine's one `executor` (navd's event loop).
///
/// A scene exists — reads, subscriptions, `sceneNames` see it — only once a
/// mutation to it committed (`main` always exists). While the first
/// mutations to a new name are in flight, the name holds a slot that counts
/// toward `maxScenes`; if none of them commits, the slot is removed and the
/// failed calls leave no trace. Subscribers waiting for a name that does not
/// exist (`subscribe(waitingFor:…)`) hold its slot too, counted toward
/// `maxWaitedScenes` instead, until the last of them leaves.
public final class Engine: Sendable {
  /// The scene that always exists (`main`).
  public static let mainScene = "main"

  /// A name's scene and whether it exists yet.
  struct Slot {
    let scene: SceneEngine
    /// True once a mutation committed (or the scene was restored, or is `main`).
    var exists: Bool
    /// Mutations in flight on a scene that does not exist yet; the slot is
    /// removed when the last one ends without a commit.
    var creating = 0
    /// Subscribers that waited for the scene before it existed and are still open.
    var waiting = 0
    /// The uid whose mutation created the slot (nil: exempt, or a scene restored from the
    /// store, which records no owner): counted toward that uid's `maxScenesPerUser`.
    var owner: UInt32?
    /// Open waiting subscribers by uid (non-exempt only): each uid counts the names it
    /// waits for toward its `maxWaitedScenesPerUser`.
    var waiters: [UInt32: Int] = [:]

    /// Whether anything still needs the slot; one that does not exist and is not needed is removed.
    var isHeld: Bool { exists || creating > 0 || waiting > 0 }
    /// Counts toward `maxScenes`: the scene exists or a mutation is creating it.
    var isScene: Bool { exists || creating > 0 }
    /// Counts toward `maxWaitedScenes`: subscribers wait for a scene that does not exist.
    var isWaited: Bool { !exists && waiting > 0 }
  }

  /// The engine's bounds, shared by every scene.
  public let configuration: EngineConfiguration
  let store: any SceneStore
  /// The serial executor every scene runs on.
  public let executor: any SceneExecutor
  let now: @Sendable () -> Double
  let slots: Mutex<[String: Slot]>
  /// The counts of deleted scenes, so the engine's totals never go down (Engine+Statistics.swift).
  let retired = Mutex(SceneCounters())

  private init(
    configuration: EngineConfiguration, store: any SceneStore, scenes: [String: SceneEngine],
    executor: any SceneExecutor, now: @escaping @Sendable () -> Double
  ) {
    self.configuration = configuration
    self.store = store
    self.executor = executor
    self.now = now
    var slots = scenes.mapValues { Slot(scene: $0, exists: true) }
    if slots[Self.mainScene] == nil {
      let main = SceneEngine(
        name: Self.mainScene, configuration: configuration, store: store, executor: executor, now: now)
      slots[Self.mainScene] = Slot(scene: main, exists: true)
    }
    self.slots = Mutex(slots)
  }

  /// An engine with no stored scenes: just `main`, empty, in a new epoch. Its scenes run
  /// on `executor` (by default a queue of their own).
  public convenience init(
    configuration: EngineConfiguration = EngineConfiguration(), store: any SceneStore = VolatileSceneStore(),
    executor: any SceneExecutor = QueueSceneExecutor(), now: @escaping @Sendable () -> Double = Engine.monotonicSeconds
  ) {
    self.init(configuration: configuration, store: store, scenes: [:], executor: executor, now: now)
  }

  /// Starts with the scenes a store kept (`SceneStore.load()`), each at its
  /// stored version and epoch, and `main` (empty) if none is named so.
  ///
  /// Throws `StoreError.corrupt` when a stored history cannot be rebuilt; the
  /// message names the scene and the version.
  public convenience init(
    configuration: EngineConfiguration = EngineConfiguration(), store: any SceneStore, restoring stored: [StoredScene],
    executor: any SceneExecutor = QueueSceneExecutor(), now: @escaping @Sendable () -> Double = Engine.monotonicSeconds
  ) throws(StoreError) {
    var scenes: [String: SceneEngine] = [:]
    for scene in stored {
      guard scenes[scene.name] == nil else {
        throw StoreError(.corrupt, "the store holds two scenes named \"\(scene.name)\"")
      }
      scenes[scene.name] = try SceneEngine(
        restoring: scene, configuration: configuration, store: store, executor: executor, now: now)
    }
    self.init(configuration: configuration, store: store, scenes: scenes, executor: executor, now: now)
  }

  /// The scene, if it exists (reads never create one).
  public func scene(_ name: String) throws(NavError) -> SceneEngine {
    guard let slot = slots.withLock({ $0[name] }), slot.exists else {
      throw NavError(.sceneNotFound, "no scene \"\(name)\"; a mutation creates it", field: "scene", value: name)
    }
    return slot.scene
  }

  /// Commits `request` to the scene `name` as `submit` does and returns the result: for
  /// in-process callers that await (tests, `navbench --engine`).
  public func mutate(scene name: String, _ request: MutationRequest, requester: SceneRequester? = nil) async
    -> Result<MutationOutcome, NavError>
  {
    await withCheckedContinuation { done in
      submit(scene: name, request, requester: requester) { done.resume(returning: $0) }
    }
  }

  /// Commits `request` to the scene `name`, creating the scene by this commit when it does
  /// not exist yet; a failure leaves no scene behind. `completion` gets the result: at once
  /// when the request is refused before reaching the scene, else on the scene's executor once
  /// it is stored and published (`SceneEngine.submit`). `requester`: whose quota a new scene
  /// counts toward (nil: exempt).
  public func submit(
    scene name: String, _ request: MutationRequest, requester: SceneRequester? = nil,
    completion: @escaping SceneEngine.Completion
  ) {
    let entered: (scene: SceneEngine, creating: Bool)
    do {
      entered = try enter(name, requester: requester)
    } catch {
      completion(.failure(error))
      return
    }
    guard entered.creating else {
      entered.scene.submit(request, completion: completion)
      return
    }
    let scene = entered.scene
    scene.submit(request) { result in completion(self.created(name, scene, result)) }
  }

  /// A mutation that held the slot of a scene not yet existing (`enter`) ended: the scene
  /// exists once one committed; a slot nothing holds any more is removed. The result, with
  /// `created` set on the one commit that made the scene exist. A slot that is gone, or is
  /// another scene's, was deleted meanwhile (`deleteScene`) and is left alone.
  private func created(
    _ name: String, _ scene: SceneEngine, _ result: Result<MutationOutcome, NavError>
  ) -> Result<MutationOutcome, NavError> {
    let committed = (try? result.get()) != nil
    let made = slots.withLock { slots in
      guard var slot = slots[name], slot.scene === scene else { return false }
      let made = committed && !slot.exists
      slot.creating -= 1
      slot.exists = slot.exists || committed
      slots[name] = slot.isHeld ? slot : nil
      return made
    }
    guard made else { return result }
    return result.map { outcome in
      var outcome = outcome
      outcome.created = true
      return outcome
    }
  }

  /// The scene for a mutation; a scene that does not exist yet gets (or
  /// shares) a slot, counted by `maxScenes`, held until the mutation ends.
  /// A slot that subscribers wait for is the one the mutation creates, so
  /// they follow the scene from its first version. A new name counts toward the
  /// requester's share (`SceneRequester.refusal`).
  func enter(_ name: String, requester: SceneRequester?) throws(NavError) -> (
    scene: SceneEngine, creating: Bool
  ) {
    try Validation(limits: configuration.limits).id(name, field: "scene")
    let result: Result<(SceneEngine, Bool), NavError> = slots.withLock { slots in
      let existing = slots[name]
      if let existing, existing.exists { return .success((existing.scene, false)) }
      if existing?.isScene != true {
        // Linear counts, paid only by a name that is not a scene yet.
        let held = slots.values.count(where: \.isScene)
        let requester = requester ?? SceneRequester(uid: 0, exempt: true)
        let own = requester.exempt ? 0 : slots.values.count { $0.isScene && $0.owner == requester.uid }
        if let refusal = requester.refusal(
          name: name, held: held, own: own, limit: configuration.maxScenes, limitName: "maxScenes",
          perUser: configuration.maxScenesPerUser, perUserLimitName: "scenesPerUser", what: "scenes")
        {
          return .failure(refusal)
        }
      }
      var slot = existing ?? Slot(scene: newScene(name), exists: false)
      if !slot.isScene, let requester, !requester.exempt { slot.owner = requester.uid }
      slot.creating += 1
      slots[name] = slot
      return .success((slot.scene, true))
    }
    return try result.get()
  }

  /// A scene of this engine that does not exist yet: empty, version 0, a new epoch.
  func newScene(_ name: String) -> SceneEngine {
    SceneEngine(name: name, configuration: configuration, store: store, executor: executor, now: now)
  }

  /// Names of the scenes that exist, sorted.
  public var sceneNames: [String] { slots.withLock { $0.filter(\.value.exists).keys.sorted() } }

  /// Seconds on a clock that never jumps (CLOCK_MONOTONIC).
  public static func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
