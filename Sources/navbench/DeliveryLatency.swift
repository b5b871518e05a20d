/// Closed loop: publish one message, wait until every subscriber has it,
/// repeat. The latency to the first and to the last subscriber.
extension Bench {
  /// How long one message may take to reach every subscriber before the run fails.
  static let roundSeconds = 10.0

  func delivery(subscribers count: Int) throws {
    let channel = channel("bench-fan-\(count)")
    let writer = try target.connect()
    writer.setTimeout(milliseconds: 10_000)
    try prepare(writer, channel: channel)
    let subscribers = try SubscriberSet(target: target, channel: channel, count: count)
    let rounds = max(200, settings.iterations / 10)
    let warmUp = rounds / 10
    var cpuBefore = warmUp == 0 ? serverCPUSeconds() : nil
    let (firsts, lasts) = try closedLoop(
      writer: writer, subscribers: subscribers, channel: channel, rounds: rounds, warmUp: warmUp
    ) { cpuBefore = serverCPUSeconds() }
    record("delivery.\(count).first", "delivery to the first of \(count)", Percentiles(nanoseconds: firsts))
    record("delivery.\(count).last", "delivery to the last of \(count)", Percentiles(nanoseconds: lasts))
    recordServerCPU(
      "delivery.\(count).cpu", "server CPU per publish delivered to \(count)", since: cpuBefore, messages: lasts.count)
    recordServerCPU(
      "delivery.\(count).cpuPerUpdate", "server CPU per update delivered, \(count) subscribers", since: cpuBefore,
      messages: lasts.count * count)
  }

  /// Publishes `warmUp + rounds` messages one at a time, each only once every
  /// subscriber has the previous one and the writer its acknowledgement, and
  /// returns the nanoseconds from send to the first and to the last arrival of
  /// each measured round. `warmedUp` runs once, when the warm-up ends.
  func closedLoop(
    writer: BenchConnection, subscribers: SubscriberSet, channel: String, rounds: Int, warmUp: Int,
    warmedUp: () throws -> Void = {}
  ) throws -> (firsts: [UInt64], lasts: [UInt64]) {
    let deadline = Deadline(seconds: settings.seconds)
    var firsts: [UInt64] = []
    var lasts: [UInt64] = []
    var round = 0
    while round < rounds + warmUp, !deadline.passed {
      // Built before the clock starts, as in the round trip: building it (~44,000
      // instructions, callgrind) is the client's time, not the server's.
      let frame = target.publishFrame(channel: channel, sequence: round)
      let start = nowNanoseconds()
      try writer.send(frame)
      let reached = try subscribers.pump(until: UInt64(round + 1), deadline: Deadline(seconds: Self.roundSeconds))
      let arrivals = reached.compactMap { $0 }
      let count = subscribers.connections.count
      guard arrivals.count == count else {
        throw BenchConnection.Failure(
          description:
            "\(count - arrivals.count) of \(count) subscribers missed message \(round) for \(Self.roundSeconds) s")
      }
      let ack = try writer.readMessage()
      try ack.withUnsafeBytes { try target.checkAcknowledgement($0) }
      if round >= warmUp {
        firsts.append(arrivals.min()! - start)
        lasts.append(arrivals.max()! - start)
      } else if round == warmUp - 1 {
        try warmedUp()
      }
      round += 1
    }
    return (firsts, lasts)
  }
}
