/// Closed loop: publish one message, wait until every subscriber has it,
/// repeat. The latency to the first and to the last subscriber.
extension Bench {
  /// How long one message may take to reach every subscriber before the run fails.
  static let roundSeconds = 10.0

  func delivery(subscribers count: Int) throws {
    let channel = "bench-fan-\(count)"
    let writer = try target.connect()
    writer.setTimeout(milliseconds: 10_000)
    try target.prepare(writer, channel: channel)
    let subscribers = try SubscriberSet(target: target, channel: channel, count: count)
    let deadline = Deadline(seconds: settings.seconds)
    let rounds = max(200, settings.iterations / 10)
    let warmUp = rounds / 10
    var firsts: [UInt64] = []
    var lasts: [UInt64] = []
    var round = 0
    var cpuBefore = warmUp == 0 ? serverCPUSeconds() : nil
    while round < rounds + warmUp, !deadline.passed {
      let start = nowNanoseconds()
      try writer.send(target.publishFrame(channel: channel, sequence: round))
      let reached = try subscribers.pump(until: UInt64(round + 1), deadline: Deadline(seconds: Self.roundSeconds))
      let arrivals = reached.compactMap { $0 }
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
        cpuBefore = serverCPUSeconds()
      }
      round += 1
    }
    measurements.record(
      "delivery.\(count).first", "delivery to the first of \(count)", Percentiles(nanoseconds: firsts))
    measurements.record("delivery.\(count).last", "delivery to the last of \(count)", Percentiles(nanoseconds: lasts))
    recordServerCPU(
      "delivery.\(count).cpu", "server CPU per publish delivered to \(count)", since: cpuBefore, messages: lasts.count)
  }
}
