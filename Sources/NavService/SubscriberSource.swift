import NavEngine
import NavModel
import NavServer
import NavWire
import Synchronization

/// Feeds a subscriber's queue to its connection: the connection pulls when it can write.
final class SubscriberSource: ReplySource {
  let subscriber: Subscriber
  let resume: Resume
  /// Tells the connection to pull (`CallContext.sourceHasDataSignal`).
  private let wake: @Sendable () -> Void
  /// Set with `finalFrame` by `end(with:)`; read on every pull, so an atomic in front of the lock.
  private let ending = Atomic<Bool>(false)
  /// Set with `finalFrame` by `finish(with:)`: what is queued is still delivered, then the frame.
  private let finishing = Atomic<Bool>(false)
  private let finalFrame = Mutex<[UInt8]?>(nil)
  /// Run once when the stream ends, either way (`onEnd`).
  private let endHooks = Mutex<[@Sendable () -> Void]?>([])

  /// How a successor navd continues this stream after a hand-over.
  enum Resume: Sendable {
    /// Repeat the call as it was (WatchActions).
    case repeatCall
    /// Repeat the Subscribe from the last version the client was given, in the scene's
    /// epoch (nil while the scene does not exist yet: the call is repeated as it was).
    case fromDeliveredVersion(epoch: @Sendable () -> String?)
  }

  init(_ subscriber: Subscriber, resume: Resume = .repeatCall, wake: @escaping @Sendable () -> Void = {}) {
    self.subscriber = subscriber
    self.resume = resume
    self.wake = wake
  }

  func pull() -> (bytes: [UInt8], finished: Bool) {
    guard ending.load(ordering: .acquiring) else {
      // Read before the pull: once it is set nothing more is queued, so this pull takes it all.
      guard finishing.load(ordering: .acquiring) else { return (subscriber.pull(), false) }
      let queued = subscriber.pull()
      subscriber.cancel()
      ended()
      return (queued + (finalFrame.withLock { $0 } ?? []), true)
    }
    // Ended (a revoked right): what was queued is not delivered; the final error is.
    subscriber.cancel()
    ended()
    return (finalFrame.withLock { $0 } ?? [], true)
  }

  /// The subscriber's queue, counted against its uid's output limit.
  var queuedBytes: Int { subscriber.pendingBytes }

  func cancelled() {
    subscriber.cancel()
    ended()
  }

  /// Ends the stream with `frame` (a complete error reply) at the connection's next pull,
  /// dropping what is queued; the connection stays open. Callable from any thread.
  func end(with frame: [UInt8]) {
    finalFrame.withLock { $0 = $0 ?? frame }
    ending.store(true, ordering: .releasing)
    wake()
  }

  /// Ends the stream with `frame` (a complete error reply) after what is queued for it: the
  /// source of a scene that publishes nothing more (a deleted one). Callable from any thread.
  func finish(with frame: [UInt8]) {
    finalFrame.withLock { $0 = $0 ?? frame }
    finishing.store(true, ordering: .releasing)
    wake()
  }

  /// Runs `hook` once when the stream ends (cancelled, or finished by `end(with:)`); at
  /// once if it already has.
  func onEnd(_ hook: @escaping @Sendable () -> Void) {
    let done = endHooks.withLock { hooks in
      guard hooks != nil else { return true }
      hooks?.append(hook)
      return false
    }
    if done { hook() }
  }

  private func ended() {
    let hooks = endHooks.withLock { hooks in
      defer { hooks = nil }
      return hooks ?? []
    }
    for hook in hooks { hook() }
  }

  /// A Subscribe continues from the last version the client was given, in the same epoch.
  func handOverParameters() -> [String: JSONValue]? {
    guard case .fromDeliveredVersion(let currentEpoch) = resume, let epoch = currentEpoch() else { return [:] }
    guard let version = subscriber.deliveredVersion else { return nil }
    return ["sinceVersion": .number(Double(version)), "epoch": .string(epoch)]
  }
}
