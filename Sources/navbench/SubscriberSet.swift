/// N subscribers to one channel and where each has got to.
///
/// Positions are relative to where each subscriber started, so "position 5"
/// means the same on both servers: five versions (navd) or five messages
/// (Redis) since subscribing.
final class SubscriberSet {
  let target: any PubSubTarget
  private(set) var connections: [BenchConnection] = []
  private var starts: [UInt64] = []
  private var positions: [UInt64] = []
  private let poller: Poller

  /// Subscribing stopped early; `opened` subscribers were accepted before it.
  struct Refused: Error, CustomStringConvertible {
    var opened: Int
    var reason: String
    var description: String { "subscriber \(opened + 1) refused: \(reason)" }
  }

  /// Subscribes `count` connections, `batch` at a time (all calls sent, then all first replies read).
  /// `frame`: the subscribe frame of the `i`th subscriber (default: the target's, for all).
  init(
    target: any PubSubTarget, channel: String, count: Int, batch: Int = 256, frame: ((Int) -> [UInt8])? = nil
  ) throws {
    self.target = target
    poller = try Poller()
    connections.reserveCapacity(count)
    let shared = target.subscribeFrame(channel: channel)
    while connections.count < count {
      var opening: [BenchConnection] = []
      do {
        for _ in 0..<min(batch, count - connections.count) {
          let connection = try target.connect()
          connection.setTimeout(milliseconds: 10_000)
          try connection.send(frame?(connections.count + opening.count) ?? shared)
          opening.append(connection)
        }
        for connection in opening {
          let first = try connection.readMessage()
          let start = try first.withUnsafeBytes { try target.subscribed($0) }
          try poller.add(connection, tag: connections.count)
          connections.append(connection)
          starts.append(start)
          positions.append(start)
        }
      } catch {
        throw Refused(opened: connections.count, reason: "\(error)")
      }
    }
  }

  var count: Int { connections.count }

  /// How far subscriber `i` has got since it subscribed.
  func progress(_ i: Int) -> UInt64 { positions[i] - starts[i] }

  /// Reads until every subscriber has reached `goal`, or `deadline` passes.
  /// Returns when each reached it (monotonic nanoseconds; nil: not by the
  /// deadline). `tick` runs about every `tickSeconds` while waiting.
  func pump(
    until goal: UInt64, deadline: Deadline, tickSeconds: Double = 0.25, tick: (() -> Void)? = nil
  ) throws -> [UInt64?] {
    var reachedAt = [UInt64?](repeating: nil, count: count)
    var remaining = 0
    for i in 0..<count {
      if progress(i) >= goal { reachedAt[i] = nowNanoseconds() } else { remaining += 1 }
    }
    var nextTick = nowNanoseconds() + UInt64(tickSeconds * 1e9)
    while remaining > 0 {
      let ready = try poller.wait(until: deadline)
      if ready.isEmpty, deadline.passed { break }
      for i in ready {
        try connections[i].fill()
        var position = positions[i]
        connections[i].forEachBufferedMessage { message in
          position = target.position(after: message, previous: position)
          return true
        }
        positions[i] = position
        if reachedAt[i] == nil, position - starts[i] >= goal {
          reachedAt[i] = nowNanoseconds()
          remaining -= 1
        }
      }
      if let tick, nowNanoseconds() >= nextTick {
        tick()
        nextTick = nowNanoseconds() + UInt64(tickSeconds * 1e9)
      }
    }
    return reachedAt
  }
}
