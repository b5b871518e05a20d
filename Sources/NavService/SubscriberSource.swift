import NavEngine
import NavServer
import NavWire

/// Feeds a subscriber's queue to its connection: the connection pulls when it can write.
final class SubscriberSource: ReplySource {
  let subscriber: Subscriber

  init(_ subscriber: Subscriber) { self.subscriber = subscriber }

  func pull() -> (bytes: [UInt8], finished: Bool) { (subscriber.pull(), false) }

  func cancelled() { subscriber.cancel() }
}
