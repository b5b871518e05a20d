import NavEngine
import NavServer
import NavWire

/// Feeds a subscriber's queue to its connection: the connection pulls when it can write.
final class SubscriberSource: ReplySource {
  let subscriber: Subscriber

  init(_ subscriber: Subscriber) { self.subscriber = subscriber }

  func pull() -> (bytes: [UInt8], finished: Bool) { (subscriber.pull(), false) }

  func cancelled() { subscriber.cancel() }

  /// `{"parameters":<parameters>,"continues":true}` and the NUL that ends a Varlink frame,
  /// framed as every other reply is (`VarlinkReply`).
  static func frame(_ parameters: [UInt8], into out: inout [UInt8]) {
    VarlinkReply.encodeContinuing(encodedParameters: parameters, into: &out)
  }
}
