import NavEngine
import NavServer
import NavWire

/// Feeds a subscriber's queue to its connection: the connection pulls when it can write.
final class SubscriberSource: ReplySource {
  let subscriber: Subscriber

  init(_ subscriber: Subscriber) { self.subscriber = subscriber }

  func pull() -> (bytes: [UInt8], finished: Bool) { (subscriber.pull(), false) }

  func cancelled() { subscriber.cancel() }

  /// `{"continues":true,"parameters":<parameters>}` and the NUL that ends a Varlink frame.
  static func frame(_ parameters: [UInt8], into out: inout [UInt8]) {
    out.append(contentsOf: prefix)
    out.append(contentsOf: parameters)
    out.append(UInt8(ascii: "}"))
    out.append(0)
  }

  private static let prefix = Array(#"{"continues":true,"parameters":"#.utf8)
}
