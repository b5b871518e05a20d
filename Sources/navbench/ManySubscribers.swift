/// Thousands of subscribers on one channel: how long subscribing takes, what
/// each costs the server in memory, and the delivery latency to the first and last.
extension Bench {
  func manySubscribers() throws {
    let count = settings.manySubscribers
    let channel = "bench-many"
    let writer = try target.connect()
    writer.setTimeout(milliseconds: 10_000)
    try target.prepare(writer, channel: channel)
    let rssBefore = residentMiB()
    let subscribeStart = nowNanoseconds()
    let subscribers: SubscriberSet
    do {
      subscribers = try SubscriberSet(target: target, channel: channel, count: count)
    } catch let refused as SubscriberSet.Refused {
      print("\(target.name): \(refused)")
      measurements.record("many.accepted", "subscribers accepted of \(count)", "count", Double(refused.opened))
      return
    }
    measurements.record(
      "many.subscribe", "time to subscribe \(count)", "ms", Double(nowNanoseconds() - subscribeStart) / 1e6)
    measurements.record(
      "many.rss", "server RSS per subscriber, \(count) subscribed", "KiB",
      (residentMiB() - rssBefore) * 1024 / Double(count))
    let deadline = Deadline(seconds: settings.seconds)
    var firsts: [UInt64] = []
    var lasts: [UInt64] = []
    let warmUp = max(1, settings.manyRounds / 10)
    var round = 0
    while round < settings.manyRounds + warmUp, !deadline.passed {
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
      }
      round += 1
    }
    measurements.record("many.first", "delivery to the first of \(count)", Percentiles(nanoseconds: firsts))
    measurements.record("many.last", "delivery to the last of \(count)", Percentiles(nanoseconds: lasts))
  }
}
