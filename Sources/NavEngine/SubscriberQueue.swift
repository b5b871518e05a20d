import NavModel

/// A view's document at one version. Copies share the document's storage, so
/// every subscriber at the same version holds the same document, not a copy.
struct VersionedDocument: Sendable {
  var version: UInt64
  var document: JSONValue
}

/// The queue of one stream (a `Subscribe` subscriber or a `WatchActions`
/// watcher), as a pure value: no lock, no clock, no IO.
///
/// Methods are named after events and return what the owner must do next.
/// What it holds is bounded whatever the number of updates: the pending
/// frames (encoded bytes, shared by every subscriber of a view), their byte
/// total, and for a subscriber two documents — `base`, the one the client
/// has once the frames it was *committed to* (its snapshot or resume updates)
/// are sent, and `newest`, the view's current one (shared with its group).
///
/// - The first frames (`head`: the snapshot, the resume updates, the
///   `watching` frame) are never dropped: a client always starts with them.
/// - A subscriber past `limit` bytes drops its later updates (`tail`) and
///   becomes *coalescing*: at the next pull one update from `base` to
///   `newest` replaces them, computed then (`PullAction.coalesce`), so a
///   client that does not read costs no work and at most one old document.
/// - A watcher past `limit` bytes keeps what it has queued and refuses new
///   activations, counting them; the next pull ends with one `dropped` frame
///   saying how many it lost. `activationPublished` says whether it queued
///   one, so `Activate`'s `watchers` counts only real deliveries.
struct SubscriberQueue: Sendable {
  /// What the owner does after an event that queued something.
  enum Action: Equatable {
    /// Nothing changed for the connection.
    case none
    /// Tell the connection it has data (`CallContext.sourceHasData`).
    case wake
    /// The stream is closed: forget this subscriber.
    case remove
  }

  /// What the connection writes after a pull.
  enum PullAction {
    /// Nothing pending.
    case nothing
    /// These frames, in order.
    case send([[UInt8]])
    /// These frames, then one coalesced update from `from` to `to`.
    case coalesce([[UInt8]], from: VersionedDocument, to: VersionedDocument)
    /// These frames, then one `dropped` frame: `count` activations of `scene` lost, the last at `version`.
    case reportDropped([[UInt8]], scene: String, count: Int, version: UInt64)
  }

  /// What became of one activation.
  enum Delivery: Equatable {
    case queued
    case dropped
    case closed
  }

  private struct Pending: Sendable {
    var head: [[UInt8]] = []
    var tail: [[UInt8]] = []
    var bytes = 0
    var base: VersionedDocument?
    var newest: VersionedDocument?
    /// The tail was dropped; the next pull coalesces from `base` to `newest`.
    var coalescing = false
    /// Activations refused since the last pull, and the version of the last one.
    var dropped = 0
    var droppedVersion: UInt64 = 0
    /// The watched scene (for the `dropped` frame).
    var scene = ""
  }

  private enum State: Sendable {
    /// Created, not yet started by the engine.
    case idle
    case open(Pending)
    case closed
  }

  /// Bytes of pending frames past which updates are coalesced and activations refused.
  let limit: Int
  private var state: State = .idle
  /// How many times updates were dropped for a coalesced one (tests, statistics).
  private(set) var coalescedCount = 0
  /// The version of the document the client has after the last pull (nil before the
  /// first pull, and for watchers): where a resumed subscription continues.
  private(set) var deliveredVersion: UInt64?

  init(limit: Int) {
    self.limit = limit
  }

  var isClosed: Bool {
    if case .closed = state { return true }
    return false
  }

  /// Bytes of frames waiting to be pulled.
  var pendingBytes: Int {
    if case .open(let pending) = state { return pending.bytes }
    return 0
  }
}

extension SubscriberQueue {
  /// The engine registered a subscriber: `first` (its snapshot, or its resume
  /// updates) leads the client to `base`, the view's current document.
  mutating func subscribed(first: [[UInt8]], base: VersionedDocument) -> Action {
    guard case .idle = state else { return isClosed ? .remove : .none }
    var pending = Pending()
    pending.head = first
    pending.bytes = first.reduce(0) { $0 + $1.count }
    pending.base = base
    pending.newest = base
    state = .open(pending)
    return first.isEmpty ? .none : .wake
  }

  /// The engine registered a watcher: `first` tells the client its watch is active.
  mutating func watching(scene: String, first: [UInt8]) -> Action {
    guard case .idle = state else { return isClosed ? .remove : .none }
    var pending = Pending()
    pending.scene = scene
    pending.head = [first]
    pending.bytes = first.count
    state = .open(pending)
    return .wake
  }

  /// A new version of the view: `update` leads from the previous newest document to `newest`.
  mutating func updatePublished(_ update: [UInt8], newest: VersionedDocument) -> Action {
    guard case .open(var pending) = state else { return isClosed ? .remove : .none }
    state = .idle  // no copy-on-write of `pending` while it is changed
    defer { state = .open(pending) }
    pending.newest = newest
    if pending.coalescing { return .none }
    if pending.bytes + update.count > limit {
      pending.bytes -= pending.tail.reduce(0) { $0 + $1.count }
      pending.tail = []
      pending.coalescing = true
      coalescedCount += 1
      return .wake
    }
    pending.tail.append(update)
    pending.bytes += update.count
    return .wake
  }

  /// An `events` frame at the current version (an activation seen by subscribers).
  /// Lost while coalescing, like the events of skipped versions.
  mutating func eventsPublished(_ frame: [UInt8]) -> Action {
    guard case .open(var pending) = state else { return isClosed ? .remove : .none }
    if pending.coalescing { return .none }
    state = .idle
    defer { state = .open(pending) }
    if pending.bytes + frame.count > limit {
      pending.bytes -= pending.tail.reduce(0) { $0 + $1.count }
      pending.tail = []
      pending.coalescing = true
      coalescedCount += 1
      return .wake
    }
    pending.tail.append(frame)
    pending.bytes += frame.count
    return .wake
  }

  /// An activation for a watcher: queued if it fits, else counted as dropped.
  mutating func activationPublished(_ frame: [UInt8], version: UInt64) -> (Delivery, Action) {
    guard case .open(var pending) = state else { return isClosed ? (.closed, .remove) : (.dropped, .none) }
    state = .idle
    defer { state = .open(pending) }
    if pending.dropped > 0 || pending.bytes + frame.count > limit {
      pending.dropped += 1
      pending.droppedVersion = version
      return (.dropped, .wake)
    }
    pending.tail.append(frame)
    pending.bytes += frame.count
    return (.queued, .wake)
  }

  /// The connection can write: everything pending goes, and the client is then at `newest`.
  mutating func pulled() -> PullAction {
    guard case .open(var pending) = state else { return .nothing }
    let frames = pending.head + pending.tail
    let action: PullAction
    if pending.coalescing, let base = pending.base, let newest = pending.newest, base.version != newest.version {
      action = .coalesce(frames, from: base, to: newest)
    } else if pending.dropped > 0 {
      action = .reportDropped(frames, scene: pending.scene, count: pending.dropped, version: pending.droppedVersion)
    } else {
      action = frames.isEmpty ? .nothing : .send(frames)
    }
    pending.head = []
    pending.tail = []
    pending.bytes = 0
    pending.coalescing = false
    pending.dropped = 0
    pending.base = pending.newest
    deliveredVersion = pending.newest?.version
    state = .open(pending)
    return action
  }

  /// The client went away (or navd closed it): release everything.
  mutating func cancelled() -> Action {
    if case .closed = state { return .none }
    state = .closed
    return .remove
  }
}
