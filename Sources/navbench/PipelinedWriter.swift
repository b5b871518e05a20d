import Dispatch
import Foundation
import Synchronization

/// Publishes `count` messages (sequence numbers from `first`, so a second
/// burst on the same channel goes on changing the title) on one connection
/// with up to `window` in flight, and times each acknowledgement from the
/// moment its message was sent. Runs on the calling thread (`run`) or its own (`start`/`join`), so
/// subscribers can be read at the same time. Given `frames`, it sends those in turn instead of
/// the target's publishes.
final class PipelinedWriter: @unchecked Sendable {
  // @unchecked: between `start` and `join` only the writer thread touches the
  // fields; `join` waits on a semaphore, which orders those writes before any read.
  let target: any PubSubTarget
  let connection: BenchConnection
  let channel: String
  let first: Int
  let count: Int
  let window: Int
  let deadline: Deadline
  private(set) var acknowledged = 0
  private(set) var ackLatencies: [UInt64] = []
  private(set) var failure: (any Error)?
  private let finished = DispatchSemaphore(value: 0)
  private let given: [[UInt8]]?
  /// Set once `start`'s thread is done: other threads may poll it.
  let done = Atomic(false)

  init(
    target: any PubSubTarget, connection: BenchConnection, channel: String, first: Int = 0, count: Int,
    window: Int, deadline: Deadline, frames: [[UInt8]]? = nil
  ) {
    given = frames
    self.target = target
    self.connection = connection
    self.channel = channel
    self.first = first
    self.count = count
    self.window = max(1, window)
    self.deadline = deadline
  }

  func start() {
    let thread = Thread { [self] in
      run()
      done.store(true, ordering: .releasing)
      finished.signal()
    }
    thread.start()
  }

  func join() { finished.wait() }

  /// Publishes until all are acknowledged, the deadline passes or something fails (kept in `failure`).
  func run() {
    connection.setTimeout(milliseconds: 10_000)
    ackLatencies.reserveCapacity(min(count, 1 << 20))
    // Frames are built once and reused in turn: building each costs the client
    // more than Redis spends on it, and consecutive titles still differ.
    let frames = given ?? (0..<min(count, 1024)).map { target.publishFrame(channel: channel, sequence: first + $0) }
    var sendTimes = [UInt64](repeating: 0, count: window)
    var sent = 0
    var batch: [UInt8] = []
    do {
      while acknowledged < count, !deadline.passed {
        batch.removeAll(keepingCapacity: true)
        let first = sent
        while sent < count, sent - acknowledged < window {
          batch += frames[sent % frames.count]
          sent += 1
        }
        if !batch.isEmpty {
          let now = nowNanoseconds()
          for i in first..<sent { sendTimes[i % window] = now }
          try connection.send(batch)
        }
        try connection.fill()
        let now = nowNanoseconds()
        try connection.forEachBufferedMessage { ack in
          try target.checkAcknowledgement(ack)
          if ackLatencies.count < 1 << 20 { ackLatencies.append(now - sendTimes[acknowledged % window]) }
          acknowledged += 1
          return true
        }
      }
    } catch {
      failure = error
    }
  }
}
