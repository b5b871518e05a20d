import NavModel
import Synchronization

/// One stream to one client (`Subscribe` or `WatchActions`): its
/// `SubscriberQueue` behind a lock, shared by its two users.
///
/// The engine publishes into it from its actor; the connection pulls from
/// the event loop whenever its socket can take more, and cancels it when the
/// client goes away. Each decides under the lock and acts after it: wakes
/// the connection, frames bytes, and computes a coalesced diff (the only
/// diff made per subscriber) outside the lock.
///
/// Stalls are not detected here: a connection whose output does not drain
/// is closed by the server's loop timer, which cancels this stream.
public final class Subscriber: Sendable {
  /// Unique for the life of the process.
  public let id: UInt64
  private let queue: Mutex<SubscriberQueue>
  /// Encodes frames and wraps them into streaming replies (the wire's business, not the engine's).
  private let encoder: any StreamEncoder
  private let wake: @Sendable () -> Void
  /// What to run when the stream is cancelled; nil once it was (hooks added then run at once).
  private let onCancel: Mutex<[@Sendable () -> Void]?>

  /// `queueLimit`: bytes of pending frames past which updates are coalesced
  /// (subscribers) or activations refused (watchers). Every subscriber of one
  /// engine uses an `encoder` that gives the same bytes (`StreamEncoder`).
  public init(
    id: UInt64, queueLimit: Int, encoder: any StreamEncoder, wake: @escaping @Sendable () -> Void
  ) {
    self.id = id
    self.queue = Mutex(SubscriberQueue(limit: queueLimit))
    self.encoder = encoder
    self.wake = wake
    self.onCancel = Mutex([])
  }

  /// Everything pending, framed, in one buffer; called by the connection when it can write.
  ///
  /// The queue already holds framed bytes shared by every subscriber of the
  /// view, so when one chunk is pending (the usual case: one commit group
  /// since the last pull) it is returned as it is, not copied.
  public func pull() -> [UInt8] {
    // The usual pull as bytes; only the others build a `PullAction` (`pulledFrames()`).
    if let frames = queue.withLock({ $0.pulledFrames() }) { return frames }
    // The view has spans not computed yet: the first subscriber to pull computes them for all.
    if let channel = queue.withLock({ $0.staleChannel() }) {
      channel.bringUpToDate()
      if let frames = queue.withLock({ $0.pulledFrames() }) { return frames }
    }
    switch queue.withLock({ $0.pulled() }) {
    case .nothing: return []
    case .send(let frames): return frames
    case .coalesce(let frames, let from, let to): return frames + encode(.coalesced(from: from, to: to))
    case .reportDropped(let frames, let scene, let count, let version):
      return frames + encode(.dropped(scene: scene, count: count, version: version))
    }
  }

  /// The client went away: release the queue and tell the engine to forget it.
  public func cancel() {
    _ = queue.withLock { $0.cancelled() }
    let hooks = onCancel.withLock { hooks in
      defer { hooks = nil }
      return hooks ?? []
    }
    for hook in hooks { hook() }
  }

  /// Whether the stream was cancelled.
  public var isClosed: Bool { queue.withLock { $0.isClosed } }

  /// How many times this subscriber's updates were coalesced (tests, statistics).
  public var coalescedCount: Int { queue.withLock { $0.coalescedCount } }

  /// The version the client has reached with what it pulled (nil before the first pull,
  /// and for watchers): a hand-over resumes the subscription from it.
  public var deliveredVersion: UInt64? { queue.withLock { $0.deliveredVersion } }

  /// Bytes of frames waiting to be pulled (tests: the queue bound).
  public var pendingBytes: Int { queue.withLock { $0.pendingBytes } }

}

/// The engine's side: every method returns false once the stream is closed,
/// so the caller forgets it at once.
extension Subscriber {
  /// `frame` as one streaming reply, encoded and framed by this subscriber's
  /// encoder: the bytes queued (once per frame: `SharedFrame`).
  func encode(_ frame: StreamFrame) -> [UInt8] { encoder.encodeFramed(frame) }

  /// `frame`'s reply parameters alone (their size is what `resumeCost` weighs).
  func encodeParameters(_ frame: StreamFrame) -> [UInt8] { encoder.encode(frame) }

  /// `parameters` (from `encodeParameters`) as one streaming reply.
  func framed(_ parameters: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(parameters.count + 40)
    encoder.frame(parameters, into: &out)
    return out
  }

  func subscribed(first: [[UInt8]], base: VersionedDocument, channel: ViewChannel? = nil) -> Bool {
    perform(queue.withLock { $0.subscribed(first: first, base: base, channel: channel) })
  }

  func restarted(first: [UInt8], base: VersionedDocument, channel: ViewChannel) -> Bool {
    perform(queue.withLock { $0.restarted(first: first, base: base, channel: channel) })
  }

  func watching(scene: String, first: [UInt8]) -> Bool {
    perform(queue.withLock { $0.watching(scene: scene, first: first) })
  }

  func updatePublished(
    _ update: [UInt8], from: VersionedDocument, to: VersionedDocument, previousFrom: VersionedDocument,
    coalesced: Bool = false
  ) -> Bool {
    perform(
      queue.withLock {
        $0.updatePublished(update, from: from, to: to, previousFrom: previousFrom, coalesced: coalesced)
      })
  }

  func stalePublished() -> Bool { perform(queue.withLock { $0.stalePublished() }) }

  func eventsPublished(_ frame: [UInt8], newest: VersionedDocument, newestFrom: VersionedDocument) -> Bool {
    perform(queue.withLock { $0.eventsPublished(frame, newest: newest, newestFrom: newestFrom) })
  }

  func activationPublished(_ frame: [UInt8], version: UInt64) -> SubscriberQueue.Delivery {
    let (delivery, action) = queue.withLock { $0.activationPublished(frame, version: version) }
    _ = perform(action)
    return delivery
  }

  /// Runs `hook` once when the stream is cancelled — at once if it already
  /// was, so a client that left while it was being registered is still forgotten.
  func addCancelHook(_ hook: @escaping @Sendable () -> Void) {
    let cancelled = onCancel.withLock { hooks in
      guard hooks != nil else { return true }
      hooks?.append(hook)
      return false
    }
    if cancelled { hook() }
  }

  private func perform(_ action: SubscriberQueue.Action) -> Bool {
    switch action {
    case .none: return true
    case .wake:
      wake()
      return true
    case .remove: return false
    }
  }
}
