import Foundation

/// `navbench --instructions`: the fixed workloads of the instruction budget
/// (`bench/instructions.sh`), against a navd that counts its instructions
/// (callgrind). For each op kind, on a fresh scene of its shape: round trips
/// one at a time; pipelined bursts, each written at once and acknowledged in
/// full before the next; and a closed-loop fan-out to `subscribers` layout
/// subscribers (every update read before the next publish, so none is
/// coalesced). Each workload is set up and warmed up, then measured between
/// `zeroCommand` and `dumpCommand`, whose `{}` becomes the workload's name,
/// `KIND.WORKLOAD.MUTATIONS`.
///
/// Only what the client waits for decides what navd does, never a clock, so
/// the counts repeat from run to run.
struct InstructionWorkloads {
  var target: NavdTarget
  let kinds: [OpKind]
  let zeroCommand: String
  let dumpCommand: String
  let measurements: Measurements
  static let roundTrips = 100
  static let subscribers = 64
  static let fanOutPublishes = 20
  static let burst = 64
  static let bursts = 4

  /// Runs `command` with `name` in place of `{}`; throws when it fails.
  func run(_ command: String, name: String) throws {
    let line = command.replacingOccurrences(of: "{}", with: name)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", line]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchConnection.Failure(description: "`\(line)` failed (status \(process.terminationStatus))")
    }
  }

  /// Measures one workload: `body` does the warm-up, calls its argument once warm, then does the measured part.
  func measure(_ kind: OpKind, _ workload: String, mutations: Int, _ body: (() throws -> Void) throws -> Void) throws {
    let name = "\(kind.rawValue).\(workload).\(mutations)"
    try body { try run(zeroCommand, name: name) }
    try run(dumpCommand, name: name)
    measurements.record("instructions.\(name)", "\(kind.label): \(workload)", "count", Double(mutations))
  }

  func runAll() throws {
    for kind in kinds { try run(kind) }
  }

  private func run(_ kind: OpKind) throws {
    var target = self.target
    target.kind = kind
    let channel = "bench-op-\(kind.rawValue)"
    let writer = try target.connect()
    writer.setTimeout(milliseconds: 120_000)
    try target.prepare(writer, channel: channel)
    var sequence = 0
    func publish() throws {
      try target.publish(writer, channel: channel, sequence: sequence)
      sequence += 1
    }
    try measure(kind, "roundtrip", mutations: Self.roundTrips) { warm in
      for _ in 0..<10 { try publish() }
      try warm()
      for _ in 0..<Self.roundTrips { try publish() }
    }
    try measure(kind, "burst\(Self.burst)", mutations: Self.burst * Self.bursts) { warm in
      func burst() throws {
        var frames: [UInt8] = []
        for _ in 0..<Self.burst {
          frames += target.publishFrame(channel: channel, sequence: sequence)
          sequence += 1
        }
        try writer.send(frames)
        for _ in 0..<Self.burst {
          let ack = try writer.readMessage()
          try ack.withUnsafeBytes { try target.checkAcknowledgement($0) }
        }
      }
      try burst()
      try warm()
      for _ in 0..<Self.bursts { try burst() }
    }
    // Subscribed outside the measured workload and kept until after it, so
    // that navd closing them is counted in none (it has by the next kind's warm-up);
    // last, so no burst is coalesced for them.
    let subscribers = try SubscriberSet(target: target, channel: channel, count: Self.subscribers)
    for subscriber in subscribers.connections { subscriber.setTimeout(milliseconds: 120_000) }
    try withExtendedLifetime(subscribers) {
      try fanOut(kind, writer: writer, subscribers: subscribers)
    }
  }

  private func fanOut(_ kind: OpKind, writer: BenchConnection, subscribers: SubscriberSet) throws {
    var target = self.target
    target.kind = kind
    let channel = "bench-op-\(kind.rawValue)"
    try measure(kind, "fanout\(Self.subscribers)", mutations: Self.fanOutPublishes) { warm in
      var settings = BenchSettings()
      settings.seconds = 3600
      let bench = Bench(target: target, settings: settings, measurements: measurements, pid: nil)
      _ = try bench.closedLoop(
        writer: writer, subscribers: subscribers, channel: channel, rounds: Self.fanOutPublishes, warmUp: 2,
        warmedUp: warm)
    }
  }
}
