/// One publish at a time on one connection: the time from send to acknowledgement.
extension Bench {
  func roundTrip() throws {
    let channel = channel("bench-rt")
    let connection = try target.connect()
    connection.setTimeout(milliseconds: 10_000)
    try prepare(connection, channel: channel)
    let deadline = Deadline(seconds: settings.seconds)
    let warmUp = settings.iterations / 10
    var samples: [UInt64] = []
    samples.reserveCapacity(settings.iterations)
    var i = 0
    var cpuBefore = warmUp == 0 ? serverCPUSeconds() : nil
    while i < settings.iterations + warmUp, !deadline.passed {
      let frame = target.publishFrame(channel: channel, sequence: i)
      let start = nowNanoseconds()
      try connection.send(frame)
      let ack = try connection.readMessage()
      let elapsed = nowNanoseconds() - start
      try ack.withUnsafeBytes { try target.checkAcknowledgement($0) }
      if i >= warmUp { samples.append(elapsed) } else if i == warmUp - 1 { cpuBefore = serverCPUSeconds() }
      i += 1
    }
    record("roundtrip", "round trip, no subscribers (PUBLISH / Mutate)", Percentiles(nanoseconds: samples))
    recordServerCPU("roundtrip.cpu", "server CPU per round trip", since: cpuBefore, messages: samples.count)
  }
}
