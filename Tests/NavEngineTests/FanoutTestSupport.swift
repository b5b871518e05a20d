import NavEngine
import NavModel
import Testing

/// A subscriber whose frames the test pulls and decodes, as a connection would.
final class TestSubscriber: Sendable {
  let subscriber: Subscriber

  init(id: UInt64, queueLimit: Int = 1 << 20) {
    subscriber = Subscriber(
      id: id, queueLimit: queueLimit,
      frame: { parameters, out in
        out.append(contentsOf: parameters)
        out.append(0)
      },
      wake: {})
  }

  /// Everything pending, as decoded reply parameters.
  func pull() throws -> [JSONValue] {
    let bytes = subscriber.pull()
    return try bytes.split(separator: 0, omittingEmptySubsequences: true).map { try JSONParser.parse($0) }
  }
}
