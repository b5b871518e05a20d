/// Throughput with `window` publishes in flight on one connection and no
/// subscribers, and the server's CPU time per message.
extension Bench {
  func pipelined() throws {
    let channel = "bench-pipe"
    let connection = try target.connect()
    try prepare(connection, channel: channel)
    let writer = PipelinedWriter(
      target: target, connection: connection, channel: channel, count: settings.iterations * 4,
      window: settings.window, deadline: Deadline(seconds: settings.seconds))
    let cpuBefore = serverCPUSeconds()
    let start = nowNanoseconds()
    writer.run()
    let seconds = Double(nowNanoseconds() - start) / 1e9
    if let failure = writer.failure { throw failure }
    let count = Double(writer.acknowledged)
    measurements.record(
      "pipelined.rate", "pipelined publishes, window \(settings.window), no subscribers", "/s", count / seconds)
    recordServerCPU(
      "pipelined.cpu", "server CPU per pipelined publish", since: cpuBefore, messages: writer.acknowledged)
  }
}
