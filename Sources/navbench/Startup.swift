import Foundation

/// navd's start-up time, from spawning it to the first call answered on its
/// socket, with no state and (when navd has `--state-dir`) with stored state.
struct StartupBench {
  let binary: String
  /// Given to every navd after `--socket` (and `--state-dir`).
  let extraArguments: [String]
  let runs: Int
  let measurements: Measurements
  /// Scenes and versions stored before timing start-up with state (0 scenes skips it).
  let stateScenes: Int
  let stateVersions: Int
  let populateSeconds: Double
  let window: Int

  func run() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/navd.sock"
    // A navd that keeps state gets a new, empty state directory for each
    // start (never the user's default one): "no state" is a first start.
    let keepsState = try ServerProcess.helpMentions(binary, "--state-dir")
    try measure(key: "startup.empty", label: "navd start-up to a served socket, no state", socket: socket) { run in
      ["--socket", socket] + (keepsState ? ["--state-dir", directory + "/empty-\(run)"] : []) + extraArguments
    }
    guard stateScenes > 0 else { return }
    let stateArguments = ["--socket", socket, "--state-dir", directory + "/state"] + extraArguments
    let stored = try populate(arguments: stateArguments, socket: socket)
    try measure(
      key: "startup.state",
      label: "navd start-up, \(stateScenes) scenes and \(format(Double(stored), decimals: 0)) versions stored",
      socket: socket
    ) { _ in stateArguments }
  }

  private func measure(key: String, label: String, socket: String, arguments: (Int) -> [String]) throws {
    let target = NavdTarget(socketPath: socket, payloadBytes: 200)
    var samples: [UInt64] = []
    var rss: [Double] = []
    for run in 0..<runs {
      let arguments = arguments(run)
      let start = nowNanoseconds()
      let process = try ServerProcess(binary: binary, arguments: arguments)
      defer { process.stop() }
      guard process.waitUntilServing(target, deadline: Deadline(seconds: 10)) else {
        throw BenchConnection.Failure(
          description: "\(binary) \(arguments.joined(separator: " ")) did not serve within 10 s")
      }
      samples.append(nowNanoseconds() - start)
      rss.append((ProcessStats.residentBytes(process.pid) ?? .nan) / 1_048_576)
    }
    let latency = Percentiles(nanoseconds: samples)
    measurements.record("\(key).p50", "\(label) p50", "ms", latency.p50 / 1000)
    measurements.record("\(key).max", "\(label) max", "ms", latency.at(1) / 1000)
    measurements.record("\(key).rss", "\(label): RSS after start", "MiB", median(rss))
  }

  /// Starts navd with a state directory and fills it: `stateScenes` scenes,
  /// `stateVersions` title changes on the first; returns how many versions were stored.
  private func populate(arguments: [String], socket: String) throws -> Int {
    let target = NavdTarget(socketPath: socket, payloadBytes: 200)
    let process = try ServerProcess(binary: binary, arguments: arguments)
    defer { process.stop(seconds: 60) }
    guard process.waitUntilServing(target, deadline: Deadline(seconds: 10)) else {
      throw BenchConnection.Failure(
        description: "\(binary) \(arguments.joined(separator: " ")) did not serve (does this navd have --state-dir?)")
    }
    let connection = try target.connect()
    for scene in 0..<stateScenes { try target.prepare(connection, channel: "startup-\(scene)") }
    let writer = PipelinedWriter(
      target: target, connection: connection, channel: "startup-0", count: stateVersions, window: window,
      deadline: Deadline(seconds: populateSeconds))
    writer.run()
    if let failure = writer.failure { throw failure }
    if writer.acknowledged < stateVersions {
      print("navbench: stored \(writer.acknowledged) of \(stateVersions) versions within \(populateSeconds) s")
    }
    return writer.acknowledged
  }

  static func temporaryDirectory() throws -> String {
    var template = Array("/tmp/navbench.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw BenchConnection.Failure(description: "mkdtemp failed: errno \(errno)")
    }
    return String(cString: made)
  }
}
