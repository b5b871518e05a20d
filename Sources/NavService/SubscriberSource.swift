import NavEngine
import NavModel
import NavServer
import NavWire

/// Feeds a subscriber's queue to its connection: the connection pulls when it can write.
final class SubscriberSource: ReplySource {
  let subscriber: Subscriber
  let resume: Resume

  /// How a successor navd continues this stream after a hand-over.
  enum Resume: Sendable {
    /// Repeat the call as it was (WatchActions).
    case repeatCall
    /// Repeat the Subscribe from the last version the client was given, in the scene's
    /// epoch (nil while the scene does not exist yet: the call is repeated as it was).
    case fromDeliveredVersion(epoch: @Sendable () -> String?)
  }

  init(_ subscriber: Subscriber, resume: Resume = .repeatCall) {
    self.subscriber = subscriber
    self.resume = resume
  }

  func pull() -> (bytes: [UInt8], finished: Bool) { (subscriber.pull(), false) }

  func cancelled() { subscriber.cancel() }

  /// A Subscribe continues from the last version the client was given, in the same epoch.
  func handOverParameters() -> [String: JSONValue]? {
    guard case .fromDeliveredVersion(let currentEpoch) = resume, let epoch = currentEpoch() else { return [:] }
    guard let version = subscriber.deliveredVersion else { return nil }
    return ["sinceVersion": .number(Double(version)), "epoch": .string(epoch)]
  }
}
