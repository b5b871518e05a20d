import NavEngine
import NavModel
import NavService
import Testing

/// A subscriber whose frames the test pulls and decodes, as a connection would.
final class TestSubscriber: Sendable {
  let subscriber: Subscriber
  /// One element whenever the engine wakes the subscriber (frames to pull), as a
  /// connection's loop would be woken; wakes not yet awaited merge into one. Ends at `finishWakes()`.
  let wakes: AsyncStream<Void>
  private let wakeSignal: AsyncStream<Void>.Continuation

  init(id: UInt64, queueLimit: Int = 1 << 20) {
    let (wakes, wakeSignal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    self.wakes = wakes
    self.wakeSignal = wakeSignal
    subscriber = Subscriber(
      id: id, queueLimit: queueLimit, encoder: WireStreamEncoder(), wake: { wakeSignal.yield() })
  }

  /// Ends `wakes`, so a loop awaiting them finishes.
  func finishWakes() { wakeSignal.finish() }

  /// Everything pending, as decoded reply parameters.
  func pull() throws -> [JSONValue] {
    let bytes = subscriber.pull()
    return try bytes.split(separator: 0, omittingEmptySubsequences: true).map {
      try JSONParser.parse($0)["parameters"] ?? .null
    }
  }
}
