/// Pipelined fan-out: one writer publishes as fast as the server acknowledges
/// (`window` in flight) while N subscribers read. Counts the versions made
/// visible per subscriber per second (navd may coalesce several versions into
/// one update; Redis sends every message) and the writer's ack latency.
extension Bench {
  /// One pipelined burst: the writer that published it, and when each subscriber had all of it.
  struct Burst {
    var writer: PipelinedWriter
    /// Monotonic nanoseconds; nil for a subscriber that did not by the deadline.
    var reached: [UInt64?]
  }

  func fanOut(subscribers count: Int) throws {
    let channel = channel("bench-pipe-fan-\(count)")
    let connection = try target.connect()
    try prepare(connection, channel: channel)
    let subscribers = try SubscriberSet(target: target, channel: channel, count: count)
    let start = nowNanoseconds()
    let burst = try publishPipelined(
      on: connection, channel: channel, to: subscribers, first: 0, count: settings.fanOutMessages,
      deadline: Deadline(seconds: settings.seconds))
    let end = burst.reached.contains { $0 == nil } ? nowNanoseconds() : burst.reached.compactMap { $0 }.max() ?? start
    let seen = (0..<count).reduce(0.0) { $0 + Double(subscribers.progress($1)) }
    record(
      "fanout.\(count).rate", "pipelined fan-out to \(count), versions visible per subscriber", "/s",
      seen / Double(max(count, 1)) / (Double(end - start) / 1e9))
    record(
      "fanout.\(count).ack", "writer's ack latency, pipelined to \(count)",
      Percentiles(nanoseconds: burst.writer.ackLatencies))
  }

  /// Publishes messages `first..<first + count` on `connection` (`window` in flight)
  /// while reading `subscribers` until each has seen `first + count` since it
  /// subscribed, or `deadline` passes. `tick` runs about every 0.25 s while reading.
  func publishPipelined(
    on connection: BenchConnection, channel: String, to subscribers: SubscriberSet, first: Int, count: Int,
    deadline: Deadline, tick: (() -> Void)? = nil
  ) throws -> Burst {
    let writer = PipelinedWriter(
      target: target, connection: connection, channel: channel, first: first, count: count, window: settings.window,
      deadline: deadline)
    writer.start()
    let reached = try subscribers.pump(until: UInt64(first + count), deadline: deadline, tick: tick)
    writer.join()
    if let failure = writer.failure { throw failure }
    return Burst(writer: writer, reached: reached)
  }
}
