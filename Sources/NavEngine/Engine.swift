import Glibc
import NavModel
import Synchronization

/// All scenes of one navd: finds or creates the `SceneEngine` for a name.
///
/// Lookup is synchronous (a mutex over a dictionary) so the event loop can
/// route a call to its scene's actor without a hop of its own.
public final class Engine: Sendable {
  public static let mainScene = "main"

  public let configuration: EngineConfiguration
  let store: any SceneStore
  let now: @Sendable () -> Double
  private let scenes: Mutex<[String: SceneEngine]>

  /// Starts with the scenes the store holds, and `main` (empty) if it holds none by that name.
  public init(
    configuration: EngineConfiguration = EngineConfiguration(), store: any SceneStore = VolatileSceneStore(),
    restored: [String: (state: SceneState, version: UInt64)] = [:],
    now: @escaping @Sendable () -> Double = Engine.monotonicSeconds
  ) {
    self.configuration = configuration
    self.store = store
    self.now = now
    var scenes: [String: SceneEngine] = [:]
    for (name, saved) in restored {
      scenes[name] = SceneEngine(
        name: name, state: saved.state, version: saved.version, configuration: configuration, store: store, now: now)
    }
    if scenes[Self.mainScene] == nil {
      scenes[Self.mainScene] = SceneEngine(name: Self.mainScene, configuration: configuration, store: store, now: now)
    }
    self.scenes = Mutex(scenes)
  }

  /// The scene, if it exists (reads never create one).
  public func scene(_ name: String) throws(NavError) -> SceneEngine {
    guard let scene = scenes.withLock({ $0[name] }) else {
      throw NavError(.sceneNotFound, "no scene \"\(name)\"; a mutation creates it", field: "scene", value: name)
    }
    return scene
  }

  /// The scene, created empty if it does not exist yet (mutations).
  public func sceneCreating(_ name: String) throws(NavError) -> SceneEngine {
    try Validation(limits: configuration.limits).id(name, field: "scene")
    let result: Result<SceneEngine, NavError> = scenes.withLock { scenes in
      if let existing = scenes[name] { return .success(existing) }
      guard scenes.count < configuration.maxScenes else {
        return .failure(
          NavError(
            .limitExceeded, "navd already holds \(scenes.count) scenes", field: "scene", value: name,
            limit: "maxScenes", max: configuration.maxScenes))
      }
      let scene = SceneEngine(name: name, configuration: configuration, store: store, now: now)
      scenes[name] = scene
      return .success(scene)
    }
    return try result.get()
  }

  /// Scene names, sorted.
  public var sceneNames: [String] { scenes.withLock { $0.keys.sorted() } }

  /// Seconds on a clock that never jumps (CLOCK_MONOTONIC).
  public static func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
