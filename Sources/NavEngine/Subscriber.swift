import NavModel
import Synchronization

/// One stream of updates to one client, with a bounded queue.
///
/// The engine enqueues (from its actor); the connection pulls (from the event
/// loop) whenever its socket can take more. When the queue would pass
/// `queueLimit` bytes, everything pending is replaced by one update from the
/// last version the client was given to the newest — exact, because every
/// update is a diff between documents. A subscriber that has had updates
/// pending for `stallSeconds` without pulling is disconnected.
public final class Subscriber: Sendable {
  /// Encoded reply parameters and the document they lead to.
  struct Chunk: Sendable {
    var parameters: [UInt8]
    var toVersion: UInt64
    var document: JSONValue?
  }

  struct State: Sendable {
    var queue: [Chunk] = []
    var queuedBytes = 0
    var deliveredVersion: UInt64 = 0
    var deliveredDocument: JSONValue?
    var pendingSince: Double?
    var closed = false
    var coalesced = 0
  }

  public let id: UInt64
  let queueLimit: Int
  let stallSeconds: Double
  private let state: Mutex<State>
  /// Wraps encoded parameters into a streaming reply frame (the wire's business, not the engine's).
  private let frame: @Sendable (_ parameters: [UInt8], _ into: inout [UInt8]) -> Void
  private let wake: @Sendable () -> Void
  private let disconnect: @Sendable (String) -> Void
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  public init(
    id: UInt64, queueLimit: Int, stallSeconds: Double,
    frame: @escaping @Sendable ([UInt8], inout [UInt8]) -> Void,
    wake: @escaping @Sendable () -> Void,
    disconnect: @escaping @Sendable (String) -> Void
  ) {
    self.id = id
    self.queueLimit = queueLimit
    self.stallSeconds = stallSeconds
    self.frame = frame
    self.wake = wake
    self.disconnect = disconnect
    self.state = Mutex(State())
    self.onCancel = Mutex(nil)
  }

  enum EnqueueResult {
    case queued
    case coalesced
    case closed
    case stalled
  }

  /// Queues one update. `coalesce` builds the single replacement update from
  /// the last delivered (version, document) when the queue is over its limit.
  func enqueue(
    _ chunk: Chunk, now: Double,
    coalesce: (_ fromVersion: UInt64, _ fromDocument: JSONValue) -> Chunk
  ) -> EnqueueResult {
    let result = state.withLock { s -> EnqueueResult in
      if s.closed { return .closed }
      if let since = s.pendingSince, now - since > stallSeconds {
        s.closed = true
        s.queue = []
        s.queuedBytes = 0
        return .stalled
      }
      if s.pendingSince == nil { s.pendingSince = now }
      if s.queuedBytes + chunk.parameters.count > queueLimit, !s.queue.isEmpty, let from = s.deliveredDocument {
        let replacement = coalesce(s.deliveredVersion, from)
        s.queue = [replacement]
        s.queuedBytes = replacement.parameters.count
        s.coalesced += 1
        return .coalesced
      }
      s.queue.append(chunk)
      s.queuedBytes += chunk.parameters.count
      return .queued
    }
    switch result {
    case .queued, .coalesced: wake()
    case .stalled: disconnect("subscriber did not read for \(Int(stallSeconds)) s with updates pending")
    case .closed: break
    }
    return result
  }

  /// Sets what the client has been given before any update (the snapshot it starts from).
  func start(version: UInt64, document: JSONValue?) {
    state.withLock { s in
      s.deliveredVersion = version
      s.deliveredDocument = document
    }
  }

  /// Everything pending, framed, in one buffer; called by the connection when it can write.
  public func pull() -> [UInt8] {
    state.withLock { s in
      var out: [UInt8] = []
      guard !s.queue.isEmpty else { return out }
      out.reserveCapacity(s.queuedBytes + 48 * s.queue.count)
      for chunk in s.queue {
        frame(chunk.parameters, &out)
        s.deliveredVersion = chunk.toVersion
        if let document = chunk.document { s.deliveredDocument = document }
      }
      s.queue = []
      s.queuedBytes = 0
      s.pendingSince = nil
      return out
    }
  }

  /// The client went away: stop queueing and tell the engine.
  public func cancel() {
    state.withLock { s in
      s.closed = true
      s.queue = []
      s.queuedBytes = 0
    }
    let action = onCancel.withLock { hook in
      defer { hook = nil }
      return hook
    }
    action?()
  }

  func setCancelHook(_ hook: @escaping @Sendable () -> Void) {
    onCancel.withLock { $0 = hook }
  }

  public var isClosed: Bool { state.withLock { $0.closed } }

  /// How many times this subscriber's queue was coalesced (for tests and stats).
  public var coalescedCount: Int { state.withLock { $0.coalesced } }
}
