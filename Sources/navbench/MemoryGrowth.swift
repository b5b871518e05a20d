/// Server memory across a long pipelined run with subscribers: does RSS stay flat?
extension Bench {
  func memoryGrowth() throws {
    let count = settings.memorySubscribers
    let result = try pipelinedFanOut(
      channel: "bench-memory", subscribers: count, messages: settings.memoryMutations, seconds: settings.memorySeconds)
    measurements.record(
      "memory.published", "memory run: publishes acknowledged (\(count) subscribers)", "count",
      Double(result.published))
    measurements.record("memory.before", "memory run: server RSS before", "MiB", result.rssBefore)
    measurements.record("memory.tenth", "memory run: server RSS after a tenth of it", "MiB", result.rssAtTenth)
    measurements.record("memory.peak", "memory run: server RSS peak", "MiB", result.rssPeak)
    measurements.record("memory.after", "memory run: server RSS after", "MiB", result.rssAfter)
    measurements.record(
      "memory.growth", "memory run: RSS growth, after vs before", "%",
      (result.rssAfter / result.rssBefore - 1) * 100)
    measurements.record(
      "memory.drift", "memory run: RSS growth, after vs a tenth of it", "%",
      (result.rssAfter / result.rssAtTenth - 1) * 100)
  }
}
