import Foundation

/// Server memory across a long pipelined run with subscribers: does RSS stay flat?
///
/// Compares like with like: the same subscribers and channel get a tenth of the
/// publishes, then the other nine tenths (the titles going on changing), and each
/// reading is taken with nothing in flight: every subscriber has had all of it, the
/// server has been left idle for `settleSeconds`, and the reading is the median of
/// `settledSamples` samples `sampleSpacing` apart. A single sample mid-burst against
/// one right after it compared full queues and output buffers with drained ones
/// (−6 … +13 % with no leak). The peak is sampled throughout.
extension Bench {
  /// How long the server is left idle before a settled reading: two of navd's 1-s
  /// ticks (the first sees the burst's last traffic, the second finds none and gives
  /// freed memory back, PROTOCOL §6 "Bounded memory") and half a tick of margin.
  static let settleSeconds = 2.5
  static let settledSamples = 5
  static let sampleSpacing = 0.1
  /// The three settled readings' share of `--memory-seconds`; publishing gets the rest.
  static var settlingSeconds: Double {
    3 * (settleSeconds + Double(settledSamples - 1) * sampleSpacing)
  }

  func memoryGrowth() throws {
    let count = settings.memorySubscribers
    let messages = settings.memoryMutations
    let channel = "bench-memory"
    let connection = try target.connect()
    try prepare(connection, channel: channel)
    let subscribers = try SubscriberSet(target: target, channel: channel, count: count)
    // The whole run, settling included, stays within --memory-seconds.
    let deadline = Deadline(seconds: settings.memorySeconds)
    let publishing = Deadline(seconds: settings.memorySeconds - Self.settlingSeconds)
    var rssPeak = -Double.infinity  // max(-∞, NaN) stays -∞: an unknown sample is skipped
    let sample = {
      let rss = residentMiB()
      rssPeak = max(rssPeak, rss)
      return rss
    }
    let samplePeak = { _ = sample() }
    let rssBefore = settledResidentMiB(deadline: deadline, sample: sample)
    let tenth = max(messages / 10, 1)
    let first = try publishPipelined(
      on: connection, channel: channel, to: subscribers, first: 0, count: tenth, deadline: publishing,
      tick: samplePeak)
    let rssTenth = settledResidentMiB(deadline: deadline, sample: sample)
    let rest = try publishPipelined(
      on: connection, channel: channel, to: subscribers, first: tenth, count: messages - tenth,
      deadline: publishing, tick: samplePeak)
    let rssAfter = settledResidentMiB(deadline: deadline, sample: sample)
    measurements.record(
      "memory.published", "memory run: publishes acknowledged (\(count) subscribers)", "count",
      Double(first.writer.acknowledged + rest.writer.acknowledged))
    measurements.record("memory.before", "memory run: server RSS before, settled", "MiB", rssBefore)
    measurements.record(
      "memory.tenthSettled", "memory run: server RSS after a tenth of it, settled", "MiB", rssTenth)
    measurements.record("memory.peak", "memory run: server RSS peak", "MiB", rssPeak.isFinite ? rssPeak : .nan)
    measurements.record("memory.afterSettled", "memory run: server RSS after, settled", "MiB", rssAfter)
    measurements.record(
      "memory.growthSettled", "memory run: RSS growth, after vs before (settled)", "%",
      (rssAfter / rssBefore - 1) * 100)
    measurements.record(
      "memory.driftSettled", "memory run: RSS growth, after vs a tenth of it (settled)", "%",
      (rssAfter / rssTenth - 1) * 100)
  }

  /// The server's RSS once it has been idle `settleSeconds`: the median of
  /// `settledSamples` samples `sampleSpacing` apart, every wait cut short at `deadline`.
  func settledResidentMiB(deadline: Deadline, sample: () -> Double) -> Double {
    Thread.sleep(forTimeInterval: min(Self.settleSeconds, deadline.remainingSeconds))
    var samples = [sample()]
    while samples.count < Self.settledSamples {
      Thread.sleep(forTimeInterval: min(Self.sampleSpacing, deadline.remainingSeconds))
      samples.append(sample())
    }
    return median(samples)
  }
}
