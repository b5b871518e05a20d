/// Pipelined fan-out: one writer publishes as fast as the server acknowledges
/// (`window` in flight) while N subscribers read. Counts the versions made
/// visible per subscriber per second (navd may coalesce several versions into
/// one update; Redis sends every message) and the writer's ack latency.
extension Bench {
  /// What a pipelined fan-out run observed.
  struct FanOutResult {
    var published: Int
    /// Versions (navd) or messages (Redis) each subscriber saw per second, averaged.
    var perSubscriberRate: Double
    var ackLatency: Percentiles
    /// Server RSS in MiB: after subscribing, once every subscriber had seen a
    /// tenth of the messages (bounded queues and logs are full by then), the
    /// highest seen while running, after all caught up.
    var rssBefore: Double
    var rssAtTenth: Double
    var rssPeak: Double
    var rssAfter: Double
  }

  func fanOut(subscribers count: Int) throws {
    let result = try pipelinedFanOut(
      channel: "bench-pipe-fan-\(count)", subscribers: count, messages: settings.fanOutMessages,
      seconds: settings.seconds)
    measurements.record(
      "fanout.\(count).rate", "pipelined fan-out to \(count), versions visible per subscriber", "/s",
      result.perSubscriberRate)
    measurements.record("fanout.\(count).ack", "writer's ack latency, pipelined to \(count)", result.ackLatency)
  }

  func pipelinedFanOut(channel: String, subscribers count: Int, messages: Int, seconds: Double) throws -> FanOutResult {
    let connection = try target.connect()
    try target.prepare(connection, channel: channel)
    let subscribers = try SubscriberSet(target: target, channel: channel, count: count)
    let rssBefore = residentMiB()
    var rssPeak = rssBefore
    let deadline = Deadline(seconds: seconds)
    let writer = PipelinedWriter(
      target: target, connection: connection, channel: channel, count: messages, window: settings.window,
      deadline: deadline)
    let start = nowNanoseconds()
    writer.start()
    let samplePeak = { rssPeak = max(rssPeak, residentMiB()) }
    _ = try subscribers.pump(until: UInt64(max(messages / 10, 1)), deadline: deadline, tick: samplePeak)
    let rssAtTenth = residentMiB()
    let reached = try subscribers.pump(until: UInt64(messages), deadline: deadline, tick: samplePeak)
    let end = reached.contains { $0 == nil } ? nowNanoseconds() : reached.compactMap { $0 }.max() ?? start
    writer.join()
    if let failure = writer.failure { throw failure }
    let seen = (0..<count).reduce(0.0) { $0 + Double(subscribers.progress($1)) }
    let rssAfter = residentMiB()
    return FanOutResult(
      published: writer.acknowledged,
      perSubscriberRate: seen / Double(max(count, 1)) / (Double(end - start) / 1e9),
      ackLatency: Percentiles(nanoseconds: writer.ackLatencies), rssBefore: rssBefore, rssAtTenth: rssAtTenth,
      rssPeak: max(rssPeak, rssAfter), rssAfter: rssAfter)
  }
}
