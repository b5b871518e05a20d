import Glibc

/// Other clients' answers while one client streams frames of close to the frame limit
/// (PROTOCOL §2: 1 MiB): a writer pipelines `largeFrames` of them, 4 in flight, on a thread
/// of its own, and this thread times one ordinary publish at a time on another connection
/// and channel until the writer is done, as fast as it can or at most `largeProbeRate` a
/// second. navd must not let the large frames hold its loop (issue 27): the other client's
/// p99 and max are the figures. A closed loop is itself a writer faster than the database
/// while the large records are stored, so its max includes waits for its own scene's redo
/// backlog (STORAGE.md §2); a paced client measures what the large frames cost others.
extension Bench {
  func largeFrames() throws {
    let channel = "bench-large"
    let probeChannel = "bench-large-probe"
    let writerConnection = try target.connect()
    prepared.add(channel)
    try target.prepareLarge(writerConnection, channel: channel)
    let probe = try target.connect()
    probe.setTimeout(milliseconds: 10_000)
    try prepare(probe, channel: probeChannel)
    let frame = target.largePublishFrame(channel: channel, bytes: settings.largeFrameBytes)
    let deadline = Deadline(seconds: settings.seconds)
    let writer = PipelinedWriter(
      target: target, connection: writerConnection, channel: channel, count: settings.largeFrames, window: 4,
      deadline: deadline, frames: [frame])
    let cpuBefore = serverCPUSeconds()
    let start = nowNanoseconds()
    writer.start()
    var samples: [UInt64] = []
    var sequence = 0
    let spacing: UInt64 = settings.largeProbeRate > 0 ? 1_000_000_000 / UInt64(settings.largeProbeRate) : 0
    var next = nowNanoseconds()
    while !writer.done.load(ordering: .acquiring), !deadline.passed {
      if spacing > 0 {
        next += spacing
        let now = nowNanoseconds()
        if next > now { usleep(useconds_t((next - now) / 1000)) } else { next = now }
      }
      let sent = nowNanoseconds()
      try target.publish(probe, channel: probeChannel, sequence: sequence)
      samples.append(nowNanoseconds() - sent)
      sequence += 1
    }
    writer.join()
    let seconds = Double(nowNanoseconds() - start) / 1e9
    if let failure = writer.failure { throw failure }
    let others = Percentiles(nanoseconds: samples)
    let label = "another client's round trip while one streams \(frame.count)-byte publishes"
    measurements.record("large.others", label, others)
    measurements.record("large.others.max", "\(label), max", "µs", others.at(1))
    // The database serves both clients: what the other one wrote is the large one's peer.
    measurements.record("large.others.rate", "\(label), per second", "/s", Double(samples.count) / seconds)
    measurements.record(
      "large.rate", "\(frame.count)-byte publishes, 4 in flight", "/s", Double(writer.acknowledged) / seconds)
    recordServerCPU(
      "large.cpu", "server CPU per \(frame.count)-byte publish", since: cpuBefore, messages: writer.acknowledged)
  }
}
