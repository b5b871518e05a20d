import NavEngine
import NavModel
import NavService

/// `navbench --engine`, second figure: the same title changes through a
/// `SceneEngine` (conflict checks, op log, publish, subscriber queue) with
/// one layout subscriber pulled after every mutation (framed by navd's own
/// `WireStreamEncoder`), still in process.
struct EngineActorBench {
  let mutations: Int
  let seconds: Double
  let measurements: Measurements

  func run(_ scenes: [EngineScene]) async throws {
    for scene in scenes { try await measure(scene) }
  }

  private func measure(_ scene: EngineScene) async throws {
    let engine = Engine()
    let setup = try Op.list(json: try JSONParser.parse(scene.setupOps))
    guard case .success = await engine.mutate(scene: "bench", MutationRequest(ops: setup, client: "bench")) else {
      throw BenchConnection.Failure(description: "the engine refused the \(scene.rawValue) scene's set-up ops")
    }
    let sceneEngine = try engine.scene("bench")
    let subscriber = Subscriber(
      id: 1, queueLimit: 1 << 20,
      encoder: WireStreamEncoder(), wake: {})
    try await sceneEngine.subscribe(subscriber, view: .layout(LayoutMetrics(width: 375)), sinceVersion: nil)
    _ = subscriber.pull()
    let frames = (0..<1024).map(EngineScene.retitle)
    let deadline = Deadline(seconds: seconds)
    var bytes = 0
    var done = 0
    let start = processCPUNanoseconds()
    while done < mutations, done % 1024 != 0 || !deadline.passed {
      let parameters = try JSONParser.parse(frames[done % 1024])
      let ops = try Op.list(json: parameters["ops"] ?? .null)
      guard case .success = await engine.mutate(scene: "bench", MutationRequest(ops: ops, client: "bench")) else {
        throw BenchConnection.Failure(description: "the engine refused title change \(done)")
      }
      bytes += subscriber.pull().count
      done += 1
    }
    let cpuSeconds = Double(processCPUNanoseconds() - start) / 1e9
    precondition(bytes > 0, "the subscriber received no update")
    measurements.record(
      "engine.actor.\(scene.rawValue).rate",
      "engine: title changes per CPU second through SceneEngine + 1 subscriber, \(scene.label)", "/s",
      Double(done) / cpuSeconds)
  }
}
