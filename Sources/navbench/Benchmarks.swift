import Glibc
import NavModel

/// The measurements navbench makes against a running navd.
struct Benchmarks {
  let socketPath: String
  let iterations: Int

  /// Sets up a scene with one screen whose title the benchmark rewrites.
  func prepare(_ connection: BenchConnection, scene: String) throws {
    _ = try connection.call(
      .mutate,
      ["scene": .string(scene), "ops": [["op": "setStack", "items": [["id": "root", "title": "Bench"]]]]])
  }

  static func retitle(_ scene: String, _ i: Int) -> JSONValue {
    [
      "scene": .string(scene),
      "ops": [["op": "updateNavigationItem", "item": "root", "set": ["title": .string("title \(i)")]]],
    ]
  }

  /// One Mutate at a time on one connection: the time from send to reply.
  func roundTrip() throws -> Percentiles {
    let connection = try BenchConnection(socketPath: socketPath)
    try prepare(connection, scene: "bench-rt")
    var samples: [UInt64] = []
    samples.reserveCapacity(iterations)
    for i in 0..<(iterations + iterations / 10) {
      let frame = BenchConnection.frame(.mutate, Self.retitle("bench-rt", i))
      let start = nowNanoseconds()
      try connection.send(frame)
      _ = try connection.readFrame()
      if i >= iterations / 10 { samples.append(nowNanoseconds() - start) }
    }
    return Percentiles(nanoseconds: samples)
  }

  /// Mutations per second with `window` calls in flight on one connection.
  func pipelined(window: Int) throws -> Double {
    let connection = try BenchConnection(socketPath: socketPath)
    try prepare(connection, scene: "bench-pipe")
    let total = iterations * 4
    let frames = (0..<total).map { BenchConnection.frame(.mutate, Self.retitle("bench-pipe", $0)) }
    let start = nowNanoseconds()
    var sent = 0
    var batch: [UInt8] = []
    while sent < min(window, total) {
      batch += frames[sent]
      sent += 1
    }
    try connection.send(batch)
    for _ in 0..<total {
      let reply = try connection.readFrame()
      if reply.starts(with: Array(#"{"error""#.utf8)) {
        throw BenchConnection.Failure(description: "Mutate failed: \(String(decoding: reply, as: UTF8.self))")
      }
      if sent < total {
        try connection.send(frames[sent])
        sent += 1
      }
    }
    let seconds = Double(nowNanoseconds() - start) / 1e9
    return Double(total) / seconds
  }

  /// Latency from sending a Mutate to the update arriving at the first and the
  /// last of `subscribers` layout subscribers, one mutation at a time.
  func fanOut(subscribers count: Int, rounds: Int) throws -> (first: Percentiles, last: Percentiles) {
    let scene = "bench-fan-\(count)"
    let writer = try BenchConnection(socketPath: socketPath)
    try prepare(writer, scene: scene)
    var subscribers: [BenchConnection] = []
    for _ in 0..<count {
      let s = try BenchConnection(socketPath: socketPath)
      try s.send(BenchConnection.frame(.subscribe, ["scene": .string(scene)]))
      _ = try s.readFrame()
      subscribers.append(s)
    }
    var pending = [Int](repeating: 0, count: count)
    var polls = subscribers.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
    var firsts: [UInt64] = []
    var lasts: [UInt64] = []
    for round in 0..<(rounds + rounds / 10) {
      let start = nowNanoseconds()
      try writer.send(BenchConnection.frame(.mutate, Self.retitle(scene, round)))
      for i in pending.indices { pending[i] = 1 }
      var remaining = count
      var first: UInt64 = 0
      var last: UInt64 = 0
      while remaining > 0 {
        let ready = poll(&polls, nfds_t(polls.count), 5000)
        guard ready > 0 else { throw BenchConnection.Failure(description: "subscribers got no update within 5 s") }
        for i in polls.indices where polls[i].revents != 0 {
          polls[i].revents = 0
          try subscribers[i].fill()
          while pending[i] > 0, subscribers[i].hasFrame {
            _ = try subscribers[i].readFrame()
            pending[i] -= 1
            remaining -= 1
            let at = nowNanoseconds() - start
            if first == 0 { first = at }
            last = at
          }
        }
      }
      _ = try writer.readFrame()
      if round >= rounds / 10 {
        firsts.append(first)
        lasts.append(last)
      }
    }
    return (Percentiles(nanoseconds: firsts), Percentiles(nanoseconds: lasts))
  }
}
