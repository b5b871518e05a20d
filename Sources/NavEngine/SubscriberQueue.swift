import NavModel
import Synchronization

/// A view's document at one version, shared by every subscriber at that version.
///
/// A class, so that handing it to each subscriber per update costs one retain and
/// one release: as a struct, copying the `JSONValue` enum and destroying the one it
/// replaced went through its outlined copy and destroy (callgrind, 64 subscribers:
/// ~150 instructions per subscriber per publish).
///
/// A layout view's version keeps its `Layout` and makes the JSON only when it is
/// read (a snapshot, a coalesced update: `Layout.json`, the reference), once. Keeping
/// the live document's JSON instead made every version copy the members on the path
/// it changed (the view's `LayoutDocument` and this shared them) and free the old
/// ones a version later (callgrind, 64 subscribers: ~3,200 instructions per publish).
final class VersionedDocument: Sendable {
  let version: UInt64
  /// The document as it was given, or nil for a layout.
  private let given: JSONValue?
  /// The layout the document is made of, when not given.
  let layout: Layout?
  /// The layout's document, once made.
  private let made = Mutex<JSONValue?>(nil)

  /// `document` at `version`.
  init(version: UInt64, document: JSONValue) {
    self.version = version
    given = document
    layout = nil
  }

  /// The document of `layout` (`layout.json`) at `version`.
  init(version: UInt64, layout: Layout) {
    self.version = version
    given = nil
    self.layout = layout
  }

  /// The document.
  var document: JSONValue {
    if let given { return given }
    return made.withLock { made in
      if let made { return made }
      guard let json = layout?.json else { preconditionFailure("a versioned document with neither JSON nor layout") }
      made = json
      return json
    }
  }
}

/// The queue of one stream (a `Subscribe` subscriber or a `WatchActions`
/// watcher), as a pure value: no lock, no clock, no IO.
///
/// Methods are named after events and return what the owner must do next.
/// What it holds is bounded whatever the number of updates: the pending
/// frames (encoded bytes, shared by every subscriber of a view), their byte
/// total, the version the client is at once it has them all, and for a
/// subscriber that falls behind at most two documents (shared with its
/// group): `base`, the one the client was last sent, and while it is
/// coalescing the view's newest.
///
/// - The first frames (`head`: the snapshot, the resume updates, the
///   `watching` frame) are never dropped: a client always starts with them.
/// - A subscriber past `limit` bytes drops its later updates (`tail`) and
///   becomes *coalescing*: at the next pull one update from `base` to the
///   newest document replaces them, computed then (`PullAction.coalesce`), so
///   a client that does not read costs no work and at most one old document.
/// - A watcher past `limit` bytes keeps what it has queued and refuses new
///   activations, counting them; the next pull ends with one `dropped` frame
///   saying how many it lost. `activationPublished` says whether it queued
///   one, so `Activate`'s `watchers` counts only real deliveries.
///
/// Every update of a view reaches each of its subscribers, so they chain:
/// each leads from the document the previous one led to. The document the
/// client was last sent is therefore the one the first update after its pull
/// leads from, which the view still holds until its next update (it passes
/// it as `previousFrom`): a subscriber that keeps up holds no document, and
/// one that falls behind takes it as `base` then, rather than every
/// subscriber keeping its newest document current on every update and again
/// at every pull (callgrind, 64 subscribers: from 2 retains and 2 releases per
/// subscriber per publish to none; the pull 210 → 125 instructions per
/// subscriber, the update no dearer).
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

  /// What the connection writes after a pull. The frames come as one buffer:
  /// the chunk the engine queued itself when it is the only one (the same
  /// array for every subscriber of the view), else the chunks joined.
  enum PullAction {
    /// Nothing pending.
    case nothing
    /// These frames, in order.
    case send([UInt8])
    /// These frames, then one coalesced update from `from` to `to`.
    case coalesce([UInt8], from: VersionedDocument, to: VersionedDocument)
    /// These frames, then one `dropped` frame: `count` activations of `scene` lost, the last at `version`.
    case reportDropped([UInt8], scene: String, count: Int, version: UInt64)
  }

  /// What became of one activation.
  enum Delivery: Equatable {
    case queued
    case dropped
    case closed
  }

  private struct Pending: Sendable {
    var head = Chunks()
    var tail = Chunks()
    var bytes: Int { head.bytes + tail.bytes }
    /// The version the client is at once it has pulled everything (nil for a watcher).
    var version: UInt64?
    /// An update was queued since the last pull.
    var updatesPending = false
    /// The document the client was last sent, once the view has moved on from the update
    /// that leads from it (a second update queued since the pull), or coalescing started
    /// (nil while only events were dropped); nil otherwise, and after a pull.
    var base: VersionedDocument?
    /// The tail was dropped; the next pull coalesces from `base` to `newest`.
    var coalescing = false
    /// While coalescing: the view's newest document (nil while only events were dropped).
    var newest: VersionedDocument?
    /// Activations refused since the last pull, and the version of the last one.
    var dropped = 0
    var droppedVersion: UInt64 = 0
    /// The watched scene (for the `dropped` frame).
    var scene = ""
  }

  private enum Phase: Sendable {
    /// Created, not yet started by the engine.
    case idle
    /// Started: `pending` holds what waits for the next pull.
    case open
    /// Cancelled: `pending` was released.
    case closed
  }

  /// Bytes of pending frames past which updates are coalesced and activations refused.
  let limit: Int
  // A phase beside the pending value, rather than an enum carrying it, so that each
  // event changes `pending` in place: copying it out of an enum payload and back costs a
  // retain and a release of every field, per subscriber per update.
  private var phase: Phase = .idle
  private var pending = Pending()
  /// How many times updates were dropped for a coalesced one (tests, statistics).
  private(set) var coalescedCount = 0
  /// The version of the document the client has after the last pull (nil before the
  /// first pull, and for watchers): where a resumed subscription continues.
  private(set) var deliveredVersion: UInt64?
  /// The view has committed spans this subscriber has not been queued yet: its next pull
  /// brings the view up to date first (`ViewChannel`).
  private var stale = false
  /// The view this subscriber follows, set when it subscribes and let go of when it is
  /// cancelled (the channel holds its subscribers: the pair is a cycle until then).
  private var channel: ViewChannel?

  init(limit: Int) {
    self.limit = limit
  }

  var isClosed: Bool { phase == .closed }

  /// Bytes of frames waiting to be pulled.
  var pendingBytes: Int { phase == .open ? pending.bytes : 0 }

  /// What an event that finds the queue not open tells the owner.
  private var notOpen: Action { isClosed ? .remove : .none }
}

extension SubscriberQueue {
  /// The engine registered a subscriber: `first` (its snapshot, or its resume
  /// updates) leads the client to `base`, the view's current document (the one
  /// the view's next update leads from), on `channel`.
  mutating func subscribed(first: [[UInt8]], base: VersionedDocument, channel: ViewChannel? = nil) -> Action {
    guard phase == .idle else { return notOpen }
    phase = .open
    self.channel = channel
    for frame in first { pending.head.append(frame) }
    pending.version = base.version
    return first.isEmpty ? .none : .wake
  }

  /// The scene's history was replaced (`Import`): `first`, the new history's snapshot, follows
  /// what is queued and is never dropped; it leads the client to `base`. A coalescing
  /// subscriber's skipped updates of the old history are not sent: the snapshot replaces them.
  /// From now on the stream follows the new history's `channel`.
  mutating func restarted(first: [UInt8], base: VersionedDocument, channel: ViewChannel) -> Action {
    guard phase == .open else { return notOpen }
    self.channel = channel
    if pending.coalescing { pending.tail = Chunks() }
    pending.head.append(pending.tail.take())
    pending.head.append(first)
    pending.base = nil
    pending.newest = nil
    pending.coalescing = false
    pending.updatesPending = false
    pending.version = base.version
    return .wake
  }

  /// The engine registered a watcher: `first` tells the client its watch is active.
  mutating func watching(scene: String, first: [UInt8]) -> Action {
    guard phase == .idle else { return notOpen }
    phase = .open
    pending.scene = scene
    pending.head.append(first)
    return .wake
  }

  /// New versions of the view: `update` (the framed updates of one or more
  /// versions, as one chunk) leads from `from`, the view's previous newest
  /// document, to `to`; the view's update before it led from `previousFrom`.
  /// `coalesced`: the view coalesced versions nobody pulled in time (`ViewChannel`),
  /// counted as this subscriber's.
  mutating func updatePublished(
    _ update: [UInt8], from: VersionedDocument, to: VersionedDocument, previousFrom: VersionedDocument,
    coalesced: Bool = false
  ) -> Action {
    guard phase == .open else { return notOpen }
    // Marked by `stalePublished`, which woke it: it pulls anyway, so it is not woken again.
    let woken = stale
    stale = false
    if coalesced { coalescedCount += 1 }
    pending.version = to.version
    if pending.coalescing {
      if pending.base == nil { pending.base = from }
      pending.newest = to
      return .none
    }
    // The client has the document the first update since its pull leads from: `from`
    // while none is pending; else `previousFrom` (that update is the view's previous
    // one), which the view lets go of after this update, so it is kept as `base` now.
    if pending.updatesPending, pending.base == nil { pending.base = previousFrom }
    if pending.bytes + update.count > limit {
      if !pending.updatesPending { pending.base = from }
      coalesce(to: to)
      return woken ? .none : .wake
    }
    pending.updatesPending = true
    pending.tail.append(update)
    return woken ? .none : .wake
  }

  /// The view committed spans it will compute when a subscriber pulls: this one is woken
  /// to pull (unless it was already, while coalescing). Once per bring-up-to-date.
  mutating func stalePublished() -> Action {
    guard phase == .open else { return notOpen }
    if stale { return .none }
    stale = true
    return pending.coalescing ? .none : .wake
  }

  /// The channel to bring up to date before this pull, when the view has spans this
  /// subscriber was not queued yet; nil otherwise. Clears the mark either way.
  mutating func staleChannel() -> ViewChannel? {
    guard stale else { return nil }
    stale = false
    return channel
  }

  /// An `events` frame at the current version (an activation seen by subscribers),
  /// whose document is `newest`, which the view's last update led to from `newestFrom`.
  /// Lost while coalescing, like the events of skipped versions.
  mutating func eventsPublished(
    _ frame: [UInt8], newest: VersionedDocument, newestFrom: VersionedDocument
  ) -> Action {
    guard phase == .open else { return notOpen }
    if pending.coalescing { return .none }
    if pending.bytes + frame.count > limit {
      if pending.updatesPending {
        if pending.base == nil { pending.base = newestFrom }
        coalesce(to: newest)
      } else {
        pending.base = nil
        coalesce(to: nil)
      }
      return .wake
    }
    pending.tail.append(frame)
    return .wake
  }

  /// Drops the tail: the next pull sends one update from `base` to `newest` instead
  /// (nothing when either is nil: no update was dropped).
  private mutating func coalesce(to newest: VersionedDocument?) {
    pending.newest = newest
    pending.updatesPending = false
    pending.tail = Chunks()
    pending.coalescing = true
    coalescedCount += 1
  }

  /// An activation for a watcher: queued if it fits, else counted as dropped.
  mutating func activationPublished(_ frame: [UInt8], version: UInt64) -> (Delivery, Action) {
    guard phase == .open else { return isClosed ? (.closed, .remove) : (.dropped, .none) }
    if pending.dropped > 0 || pending.bytes + frame.count > limit {
      pending.dropped += 1
      pending.droppedVersion = version
      return (.dropped, .wake)
    }
    pending.tail.append(frame)
    return (.queued, .wake)
  }

  /// `pulled()` in its usual case, as the frames alone (empty when there are none): the
  /// queue is open and holds only what was queued since the last pull, with nothing to
  /// add (no first frames, no coalesced update, no `dropped` frame). Nil, taking nothing,
  /// in every other case, which `pulled()` decides.
  ///
  /// `Subscriber.pull` asks this first: building the `PullAction` and switching over it
  /// cost ~33 instructions per subscriber per publish (callgrind, 64 subscribers).
  mutating func pulledFrames() -> [UInt8]? {
    guard phase == .open, !stale, pending.head.isEmpty, !pending.coalescing, pending.dropped == 0 else {
      return nil
    }
    let frames = pending.tail.take()
    if pending.base != nil { pending.base = nil }
    pending.updatesPending = false
    deliveredVersion = pending.version
    return frames
  }

  /// The connection can write: everything pending goes, and the client is then at the newest version.
  mutating func pulled() -> PullAction {
    guard phase == .open else { return .nothing }
    if let frames = pulledFrames() { return frames.isEmpty ? .nothing : .send(frames) }
    let frames: [UInt8]
    if pending.head.isEmpty {
      frames = pending.tail.take()
    } else {
      frames = pending.head.joined(then: pending.tail)
      pending.head = Chunks()
      pending.tail = Chunks()
    }
    let action: PullAction
    if pending.coalescing, let base = pending.base, let newest = pending.newest, base.version != newest.version {
      action = .coalesce(frames, from: base, to: newest)
    } else if pending.dropped > 0 {
      action = .reportDropped(frames, scene: pending.scene, count: pending.dropped, version: pending.droppedVersion)
    } else {
      action = frames.isEmpty ? .nothing : .send(frames)
    }
    if pending.coalescing {
      pending.coalescing = false
      pending.newest = nil
    }
    if pending.base != nil { pending.base = nil }
    pending.updatesPending = false
    pending.dropped = 0
    deliveredVersion = pending.version
    return action
  }

  /// The client went away (or navd closed it): release everything.
  mutating func cancelled() -> Action {
    if phase == .closed { return .none }
    phase = .closed
    pending = Pending()
    channel = nil
    stale = false
    return .remove
  }
}

/// Frames waiting in one queue, in order, as the chunks they were queued as:
/// held, not copied (an update chunk is shared by every subscriber of its
/// view), and without an array of chunks for the usual single one, so
/// queueing an update to a subscriber allocates nothing.
struct Chunks: Sendable {
  /// nil rather than empty when there is none, so storing the first chunk releases
  /// nothing: replacing an empty array released it (callgrind, 64 subscribers:
  /// `SubscriptionGroup.queue` 299 → 278 instructions per subscriber per publish).
  private var first: [UInt8]?
  private var rest: [[UInt8]] = []
  /// Bytes held.
  private(set) var bytes = 0

  var isEmpty: Bool { bytes == 0 }

  mutating func append(_ chunk: [UInt8]) {
    guard !chunk.isEmpty else { return }
    if first == nil { first = chunk } else { rest.append(chunk) }
    bytes += chunk.count
  }

  /// The chunks as one buffer, leaving none: the lone chunk itself (moved out, so
  /// neither copied nor retained again), else a copy of them all. Inlined into the
  /// pull, as it was before `first` became optional (a call per subscriber per publish).
  @inline(__always) mutating func take() -> [UInt8] {
    guard rest.isEmpty else {
      defer { self = Chunks() }
      return joined(then: Chunks())
    }
    bytes = 0
    return first.take() ?? []
  }

  /// These chunks and then `other`'s, as one new buffer.
  func joined(then other: Chunks) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes + other.bytes)
    append(to: &out)
    other.append(to: &out)
    return out
  }

  private func append(to out: inout [UInt8]) {
    if let first { out += first }
    for chunk in rest { out += chunk }
  }
}
