import NavEngine
import NavModel
import NavService
import NavWire

/// `navbench --engine`: the engine's work per mutation, in process, no
/// sockets: the Mutate parameters decoded into ops, applied, the layout
/// resolved with the patch from the previous one, and the update encoded —
/// the work navd does once per mutation for a view, whatever the subscriber
/// count: a `LayoutDocument` per view, as a subscription group keeps, whose
/// `update(to:change:)` returns the patch, which navd's publish path sends as it is.
/// First title changes on the two `EngineScene`s (width 375), then each op
/// kind on its three-screen scene (width 768, as the `ops` scenario).
///
/// Rates are per second of this process's CPU time (one core), so a busy
/// machine slows the run down without changing the figure much.
struct EngineBench {
  let mutations: Int
  let seconds: Double
  let measurements: Measurements
  /// Mutations per batch: stages are timed per batch, not per call, so
  /// reading the CPU clock costs nothing measurable.
  static let batch = 1024

  /// One workload: a scene, the Mutate parameters that change it in turn, the width it is laid out at.
  struct Workload {
    var key: String
    var label: String
    var initialState: SceneState
    var frames: [[UInt8]]
    var metrics: LayoutMetrics
  }

  static func workload(_ scene: EngineScene) throws -> Workload {
    Workload(
      key: scene.rawValue, label: scene.label, initialState: try scene.initialState(),
      frames: (0..<batch).map(EngineScene.retitle), metrics: LayoutMetrics(width: 375))
  }

  static func workload(_ kind: OpKind) throws -> Workload {
    Workload(
      key: "op.\(kind.rawValue)", label: "\(kind.label), three screens at \(OpKind.width)",
      initialState: try SceneState.empty.applying(try Op.list(json: try JSONParser.parse(OpKind.setupOps))).state,
      frames: (0..<batch).map { kind.parameters(channel: "bench", sequence: $0, bytes: 200) },
      metrics: LayoutMetrics(width: Double(OpKind.width)))
  }

  /// Each scene's title changes, then each op kind's mutations: the rate and, with `stages`, where the time goes.
  func run(_ scenes: [EngineScene], kinds: [OpKind], stages: Bool) throws {
    let workloads = try scenes.map(Self.workload) + kinds.map(Self.workload)
    for workload in workloads {
      try pipeline(workload)
      if stages { try self.stages(workload) }
    }
  }

  /// Mutations per CPU second through the whole pipeline, one mutation at a time.
  private func pipeline(_ workload: Workload) throws {
    let frames = workload.frames
    var state = workload.initialState
    var document = LayoutDocument(state, metrics: workload.metrics)
    var bytes = 0
    let deadline = Deadline(seconds: seconds)
    let start = processCPUNanoseconds()
    var done = 0
    while done < mutations, done % Self.batch != 0 || !deadline.passed {
      let ops = try Self.decode(frames[done % Self.batch])
      var applied = try state.applying(ops)
      // Swapped in, as SceneCore+Apply moves the new state into its plan: assigning
      // `applied.state` copied it (a retain of each of its arrays) and released the copy.
      swap(&state, &applied.state)
      let patch = document.update(to: state, change: LayoutChange(ops: ops, in: state))
      bytes += Self.encodeUpdate(version: UInt64(done), patch: patch, events: applied.events).count
      done += 1
    }
    let cpuSeconds = Double(processCPUNanoseconds() - start) / 1e9
    precondition(bytes > 0, "the benchmark encoded no update")
    let what = workload.key.hasPrefix("op.") ? "mutations" : "title changes"
    measurements.record(
      "engine.\(workload.key).rate", "engine: \(what) per CPU second, \(workload.label)", "/s",
      Double(done) / cpuSeconds)
  }

  /// Where the time goes: each stage run over a whole batch and timed once per batch.
  private func stages(_ workload: Workload) throws {
    let frames = workload.frames
    var state = workload.initialState
    var document = LayoutDocument(state, metrics: workload.metrics)
    var totals = [UInt64](repeating: 0, count: 4)
    let deadline = Deadline(seconds: seconds)
    var done = 0
    while done < mutations, !deadline.passed {
      var clock = processCPUNanoseconds()
      func lap(_ stage: Int) {
        let now = processCPUNanoseconds()
        totals[stage] += now - clock
        clock = now
      }
      let ops = try frames.map(Self.decode)
      lap(0)
      var applied: [AppliedMutation] = []
      applied.reserveCapacity(Self.batch)
      for batchOps in ops {
        let next = try state.applying(batchOps)
        state = next.state
        applied.append(next)
      }
      lap(1)
      var patches: [[PatchOperation]] = []
      patches.reserveCapacity(Self.batch)
      for (next, batchOps) in zip(applied, ops) {
        patches.append(document.update(to: next.state, change: LayoutChange(ops: batchOps, in: next.state)))
      }
      lap(2)
      var bytes = 0
      for (i, patch) in patches.enumerated() {
        bytes += Self.encodeUpdate(version: UInt64(done + i), patch: patch, events: applied[i].events).count
      }
      lap(3)
      precondition(bytes > 0, "the benchmark encoded no update")
      done += Self.batch
    }
    // The document writes the patch as it resolves (`LayoutDocument.update(to:change:)`): one stage.
    let stages = [("decode", "decode"), ("apply", "apply"), ("resolve", "resolve and diff"), ("encode", "encode")]
    let what = workload.key.hasPrefix("op.") ? "mutation" : "title change"
    for (i, (key, stage)) in stages.enumerated() {
      measurements.record(
        "engine.\(workload.key).\(key)", "engine: \(stage) per \(what), \(workload.label)", "ns",
        Double(totals[i]) / Double(max(done, 1)))
    }
  }

  /// The ops of a Mutate's parameters, read as navd reads them: straight from the bytes.
  static func decode(_ parameters: [UInt8]) throws -> [Op] {
    let document = try JSONDocument(parsing: parameters)
    return try MutateCall(parameters: document, at: document.root).ops
  }

  /// The update's parameters, encoded by navd's own stream encoder, as
  /// SceneCore+Publish has it encode every update.
  static func encodeUpdate(version: UInt64, patch: [PatchOperation], events: [SceneEvent]) -> [UInt8] {
    WireStreamEncoder().encode(
      .update(
        fromVersion: version, toVersion: version + 1, patch: patch, animated: false, events: events, coalesced: false))
  }
}
