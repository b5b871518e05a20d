/// Thousands of subscribers on one channel: how long subscribing takes, what
/// each costs the server in memory, and the delivery latency to the first and last.
extension Bench {
  func manySubscribers() throws {
    let count = settings.manySubscribers
    let channel = "bench-many"
    let writer = try target.connect()
    writer.setTimeout(milliseconds: 10_000)
    try prepare(writer, channel: channel)
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
    let (firsts, lasts) = try closedLoop(
      writer: writer, subscribers: subscribers, channel: channel, rounds: settings.manyRounds,
      warmUp: max(1, settings.manyRounds / 10))
    measurements.record("many.first", "delivery to the first of \(count)", Percentiles(nanoseconds: firsts))
    measurements.record("many.last", "delivery to the last of \(count)", Percentiles(nanoseconds: lasts))
  }
}
