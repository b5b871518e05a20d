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
  var manyRounds = 20
  /// Mutations for the memory run (0 skips it), and how long it may take.
  var memoryMutations = 1_000_000
  var memorySubscribers = 64
  var memorySeconds = 300.0
}

/// The scenarios navbench can run against a server, in the order they run
/// (`many` early, so its memory per subscriber is not hidden by heap that
/// earlier scenarios left free).
enum Scenario: String, CaseIterable {
  case idle, many, roundtrip, pipelined, delivery, fanout, memory
}

/// One run of the scenarios against one server.
struct Bench {
  let target: any PubSubTarget
  let settings: BenchSettings
  let measurements: Measurements
  /// The server's pid, for its memory and CPU time (nil when /proc cannot tell).
  let pid: Int32?

  func run(_ scenarios: [Scenario]) throws {
    for scenario in Scenario.allCases where scenarios.contains(scenario) {
      switch scenario {
      case .idle: idleMemory()
      case .roundtrip: try roundTrip()
      case .pipelined: try pipelined()
      case .delivery: for count in settings.deliveryCounts { try delivery(subscribers: count) }
      case .fanout: for count in settings.fanOutCounts { try fanOut(subscribers: count) }
      case .many: if settings.manySubscribers > 0 { try manySubscribers() }
      case .memory: if settings.memoryMutations > 0 { try memoryGrowth() }
      }
    }
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
    measurements.record(key, label, "µs", (after - before) / Double(messages) * 1e6)
  }

  func idleMemory() {
    measurements.record("rss.idle", "server RSS before any load", "MiB", residentMiB())
  }
}
