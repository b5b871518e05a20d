import NavModel

/// `navbench --engine`: the engine's work per title change, in process, no
/// sockets: the Mutate parameters decoded into ops, applied, the layout
/// resolved, diffed against the previous one and the update encoded — the
/// work navd does once per mutation for a view, whatever the subscriber count.
struct EngineBench {
  let mutations: Int
  let seconds: Double
  let measurements: Measurements
  let metrics = LayoutMetrics(width: 375)

  func run() throws {
    for scene in EngineScene.allCases {
      try pipeline(scene)
      try stages(scene)
    }
  }

  /// Mutations per second through the whole pipeline, timed only at the ends.
  private func pipeline(_ scene: EngineScene) throws {
    let frames = (0..<1024).map(EngineScene.retitle)
    var state = try scene.initialState()
    var document = LayoutResolver.resolve(state, metrics: metrics).json
    var bytes = 0
    let deadline = Deadline(seconds: seconds)
    let start = nowNanoseconds()
    var done = 0
    while done < mutations, done % 1024 != 0 || !deadline.passed {
      let parameters = try JSONParser.parse(frames[done % 1024])
      let ops = try Op.list(json: parameters["ops"] ?? .null)
      let applied = try state.applying(ops)
      state = applied.state
      let next = LayoutResolver.resolve(state, metrics: metrics).json
      let patch = PatchBuilder.diff(document, next)
      bytes += Self.encodeUpdate(version: UInt64(done), patch: patch, events: applied.events).count
      document = next
      done += 1
    }
    let elapsed = Double(nowNanoseconds() - start) / 1e9
    measurements.record(
      "engine.\(scene.rawValue).rate", "engine: title changes per second, \(scene.label)", "/s",
      Double(done) / elapsed)
    precondition(bytes > 0, "the benchmark encoded no update")
  }

  /// Where the time goes, per mutation: each stage timed on its own.
  private func stages(_ scene: EngineScene) throws {
    let frames = (0..<1024).map(EngineScene.retitle)
    var state = try scene.initialState()
    var document = LayoutResolver.resolve(state, metrics: metrics).json
    var totals = [UInt64](repeating: 0, count: 5)
    let deadline = Deadline(seconds: seconds)
    let count = min(mutations, 100_000)
    var done = 0
    while done < count, done % 1024 != 0 || !deadline.passed {
      let t0 = nowNanoseconds()
      let parameters = try JSONParser.parse(frames[done % 1024])
      let ops = try Op.list(json: parameters["ops"] ?? .null)
      let t1 = nowNanoseconds()
      let applied = try state.applying(ops)
      state = applied.state
      let t2 = nowNanoseconds()
      let next = LayoutResolver.resolve(state, metrics: metrics).json
      let t3 = nowNanoseconds()
      let patch = PatchBuilder.diff(document, next)
      let t4 = nowNanoseconds()
      _ = Self.encodeUpdate(version: UInt64(done), patch: patch, events: applied.events)
      let t5 = nowNanoseconds()
      document = next
      for (i, (a, b)) in zip([t0, t1, t2, t3, t4], [t1, t2, t3, t4, t5]).enumerated() { totals[i] += b - a }
      done += 1
    }
    for (i, stage) in ["decode", "apply", "resolve", "diff", "encode"].enumerated() {
      measurements.record(
        "engine.\(scene.rawValue).\(stage)", "engine: \(stage) per title change, \(scene.label)", "ns",
        Double(totals[i]) / Double(max(done, 1)))
    }
  }

  /// The update's parameters as navd encodes them (SceneEngine+Publish).
  static func encodeUpdate(version: UInt64, patch: [PatchOperation], events: [SceneEvent]) -> [UInt8] {
    JSONWriter.bytes([
      "kind": "update", "fromVersion": .number(Double(version)), "toVersion": .number(Double(version + 1)),
      "patch": JSONPatch.encode(patch), "animated": false, "events": .array(events.map(\.json)),
    ])
  }
}
