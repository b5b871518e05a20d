import NavEngine
import NavModel
import NavService
import Testing

/// A subscriber whose frames the test pulls and decodes, as a connection would.
final class TestSubscriber: Sendable {
  let subscriber: Subscriber

  init(id: UInt64, queueLimit: Int = 1 << 20) {
    subscriber = Subscriber(
      id: id, queueLimit: queueLimit, encoder: WireStreamEncoder(), wake: {})
  }

  /// Everything pending, as decoded reply parameters.
  func pull() throws -> [JSONValue] {
    let bytes = subscriber.pull()
    return try bytes.split(separator: 0, omittingEmptySubsequences: true).map {
      try JSONParser.parse($0)["parameters"] ?? .null
    }
  }
}
