import Foundation

/// Every knob of a run against a server; each loop is bounded by a count and by `seconds`.
struct BenchSettings {
  /// Round-trip samples; the pipelined run publishes 4× as many.
  var iterations = 5000
  /// The longest any one measurement may take.
  var seconds = 20.0
  /// Messages in flight for pipelined runs.
  var window = 64
  var payloadBytes = 200
  /// Subscriber counts for closed-loop delivery latency.
  var deliveryCounts = [1, 16, 64, 256]
  /// Subscriber counts for pipelined fan-out throughput.
  var fanOutCounts = [64, 256]
  var fanOutMessages = 20_000
  /// Subscribers on one channel for the large fan-out (0 skips it).
  var manySubscribers = 10_000
  /// `widths`: subscribers of each half (one width shared, a width each).
  var widthSubscribers = 400
  var manyRounds = 20
  /// Frames of close to `largeFrameBytes` one client streams in the large-frame run (0 skips it).
  var largeFrames = 100
  /// The frame limit (PROTOCOL §2, 1 MiB), NUL or command framing included.
  var largeFrameBytes = 1 << 20
  /// Round trips a second the other client of the large-frame run starts at most (0: as fast
  /// as it can, a closed loop).
  var largeProbeRate = 0
  /// Mutations for the memory run (0 skips it), and how long it may take.
  var memoryMutations = 1_000_000
  var memorySubscribers = 64
  var memorySeconds = 300.0
  /// The op kinds of the `ops` scenario, and its subscriber counts.
  var opKinds = OpKind.allCases
  var opDeliveryCounts = [1, 64, 256]
  var opFanOutCounts = [64]
}

/// The scenarios navbench can run against a server, in the order they run
/// (`many` early, so its memory per subscriber is not hidden by heap that
/// earlier scenarios left free).
enum Scenario: String, CaseIterable {
  case idle, many, roundtrip, pipelined, delivery, fanout, ops, widths, large, memory
}

/// One run of the scenarios against one server.
struct Bench {
  let target: any PubSubTarget
  let settings: BenchSettings
  let measurements: Measurements
  /// The server's pid, for its memory and CPU time (nil when /proc cannot tell).
  let pid: Int32?
  /// Set for one op kind's rows (`ops`): its keys' and labels' prefix, and the one scene they all use.
  var opKind: OpKind? = nil
  /// The channels the scenarios prepared, removed again after each (`cleanUp`).
  let prepared = PreparedChannels()

  /// Runs each scenario, then removes the channels it prepared (navd: the scenes it made).
  func run(_ scenarios: [Scenario]) throws {
    for scenario in Scenario.allCases where scenarios.contains(scenario) {
      defer { cleanUp() }
      switch scenario {
      case .idle: idleMemory()
      case .roundtrip: try roundTrip()
      case .pipelined: try pipelined()
      case .delivery: for count in settings.deliveryCounts { try delivery(subscribers: count) }
      case .fanout: for count in settings.fanOutCounts { try fanOut(subscribers: count) }
      case .ops: for kind in settings.opKinds { try opRows(kind) }
      case .widths: if settings.widthSubscribers > 1, let navd = target as? NavdTarget { try widths(navd) }
      case .many: if settings.manySubscribers > 0 { try manySubscribers() }
      case .large: if settings.largeFrames > 0 { try largeFrames() }
      case .memory: if settings.memoryMutations > 0 { try memoryGrowth() }
      }
    }
  }

  /// One op kind's rows: a round trip, delivery to the last of each of
  /// `opDeliveryCounts`, pipelined fan-out to each of `opFanOutCounts`, all
  /// on one scene of the kind's shape (so a run stays within navd's scenes
  /// per uid), with the kind's mutation as every publish.
  func opRows(_ kind: OpKind) throws {
    var target = self.target
    target.kind = kind
    var bench = Bench(target: target, settings: settings, measurements: measurements, pid: pid)
    bench.opKind = kind
    let sample = Payload.parameters(kind: kind, channel: bench.channel("x"), sequence: 0, bytes: settings.payloadBytes)
    bench.record("bytes", "publish size", "bytes", Double(sample.count))
    prepared.add(bench.channel("x"))
    try target.prepare(try target.connect(), channel: bench.channel("x"))
    try bench.roundTrip()
    for count in settings.opDeliveryCounts { try bench.delivery(subscribers: count) }
    for count in settings.opFanOutCounts { try bench.fanOut(subscribers: count) }
  }

  /// Makes a scenario's channel ready, but an op kind's scene: `opRows` made it once for all its rows.
  /// Each channel made is remembered for the clean-up after the scenario.
  func prepare(_ connection: BenchConnection, channel: String) throws {
    guard opKind == nil else { return }
    prepared.add(channel)
    try target.prepare(connection, channel: channel)
  }

  /// Removes the channels prepared since the last clean-up; a failure is reported, not fatal
  /// (the measurements stand).
  private func cleanUp() {
    do {
      try target.cleanUp(channels: prepared.taken())
    } catch {
      FileHandle.standardError.write(Data("navbench: could not remove the scenes it made: \(error)\n".utf8))
    }
  }

  /// The channel a scenario publishes on: its own, or the op kind's one scene.
  func channel(_ name: String) -> String {
    guard let opKind else { return name }
    return "bench-op-\(opKind.rawValue)"
  }

  /// Records a row, under the op kind's prefix when there is one (`op.KIND.KEY`, "KIND: LABEL").
  func record(_ key: String, _ label: String, _ unit: String, _ value: Double) {
    guard let opKind else { return measurements.record(key, label, unit, value) }
    measurements.record("op.\(opKind.rawValue).\(key)", "\(opKind.label): \(label)", unit, value)
  }

  /// A p50 and a p99 row for one latency, prefixed as `record` does.
  func record(_ key: String, _ label: String, _ latency: Percentiles) {
    record("\(key).p50", "\(label) p50", "µs", latency.p50)
    record("\(key).p99", "\(label) p99", "µs", latency.p99)
  }

  /// The server's resident memory in MiB, NaN when unknown.
  func residentMiB() -> Double {
    guard let pid, let bytes = ProcessStats.residentBytes(pid) else { return .nan }
    return bytes / 1_048_576
  }

  /// The server's CPU time in seconds so far (nil when /proc cannot tell).
  func serverCPUSeconds() -> Double? { pid.flatMap(ProcessStats.cpuSeconds) }

  /// Records the server's CPU time per message since `before`: robust where
  /// wall-clock latency is not, on a machine busy with other work.
  func recordServerCPU(_ key: String, _ label: String, since before: Double?, messages: Int) {
    guard let before, let after = serverCPUSeconds(), messages > 0 else { return }
    record(key, label, "µs", (after - before) / Double(messages) * 1e6)
  }

  func idleMemory() {
    measurements.record("rss.idle", "server RSS before any load", "MiB", residentMiB())
  }
}
