import Foundation

/// Server memory across a long pipelined run with subscribers: does RSS stay flat?
extension Bench {
  /// How long the server is left idle before its settled RSS is read.
  static let settleSeconds = 2.0

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
    // What a server keeps once it is idle again, apart from what it held at the end of a
    // burst: 2 s is two of navd's ticks, when it gives freed memory back to the kernel.
    Thread.sleep(forTimeInterval: Self.settleSeconds)
    let rssSettled = residentMiB()
    measurements.record("memory.settled", "memory run: server RSS 2 s after", "MiB", rssSettled)
    measurements.record(
      "memory.growth", "memory run: RSS growth, after vs before", "%",
      (result.rssAfter / result.rssBefore - 1) * 100)
    measurements.record(
      "memory.drift", "memory run: RSS growth, after vs a tenth of it", "%",
      (result.rssAfter / result.rssAtTenth - 1) * 100)
    measurements.record(
      "memory.settledDrift", "memory run: RSS growth, 2 s after vs a tenth of it", "%",
      (rssSettled / result.rssAtTenth - 1) * 100)
  }
}
