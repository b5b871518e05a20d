import NavEngine
import NavModel
import NavService
import Synchronization

/// `navbench --engine`, second figure: the same title changes through a
/// `SceneEngine` (conflict checks, op log, publish, subscriber queue) with
/// one layout subscriber pulled after every mutation (framed by navd's own
/// `WireStreamEncoder`), still in process. The scene runs on a
/// `ManualSceneExecutor` turned by this thread as navd's loop turns its own: each
/// mutation enters the scene synchronously, asks for a turn, and is stored (a
/// volatile store), published and answered in it.
struct EngineActorBench {
  let mutations: Int
  let seconds: Double
  let measurements: Measurements

  /// Counts the mutations the engine refused.
  private final class Refusals: Sendable {
    let count = Atomic<Int>(0)
  }

  func run(_ scenes: [EngineScene]) async throws {
    for scene in scenes { try measure(scene) }
  }

  private func measure(_ scene: EngineScene) throws {
    let executor = ManualSceneExecutor()
    let engine = Engine(executor: executor)
    let refusals = Refusals()
    let submit = { (ops: [Op]) in
      executor.onExecutor {
        engine.submit(scene: "bench", MutationRequest(ops: ops, client: "bench")) { result in
          if case .failure = result { refusals.count.add(1, ordering: .relaxed) }
        }
      }
      executor.runAll()
    }
    submit(try Op.list(json: try JSONParser.parse(scene.setupOps)))
    guard refusals.count.load(ordering: .relaxed) == 0 else {
      throw BenchConnection.Failure(description: "the engine refused the \(scene.rawValue) scene's set-up ops")
    }
    let sceneEngine = try engine.scene("bench")
    let subscriber = Subscriber(
      id: 1, queueLimit: 1 << 20,
      encoder: WireStreamEncoder(), wake: {})
    try executor.onExecutor {
      try sceneEngine.assumeIsolated {
        try $0.subscribe(subscriber, view: .layout(LayoutMetrics(width: 375)), sinceVersion: nil)
      }
    }
    _ = subscriber.pull()
    let frames = (0..<1024).map(EngineScene.retitle)
    let deadline = Deadline(seconds: seconds)
    var bytes = 0
    var done = 0
    let start = processCPUNanoseconds()
    while done < mutations, done % 1024 != 0 || !deadline.passed {
      let parameters = try JSONParser.parse(frames[done % 1024])
      submit(try Op.list(json: parameters["ops"] ?? .null))
      bytes += subscriber.pull().count
      done += 1
    }
    let cpuSeconds = Double(processCPUNanoseconds() - start) / 1e9
    guard refusals.count.load(ordering: .relaxed) == 0 else {
      throw BenchConnection.Failure(description: "the engine refused a title change")
    }
    precondition(bytes > 0, "the subscriber received no update")
    measurements.record(
      "engine.actor.\(scene.rawValue).rate",
      "engine: title changes per CPU second through SceneEngine + 1 subscriber, \(scene.label)", "/s",
      Double(done) / cpuSeconds)
  }
}
