import NavModel
import Synchronization

/// One view of one scene as its subscribers and the scene share it: the
/// `SubscriptionGroup` behind a lock.
///
/// A view's document is brought up to date when one of its subscribers pulls,
/// not when the scene commits: a commit only adds its span to the view's
/// pending ones (`SubscriptionGroup.published`) and, the first time, tells
/// each subscriber it has something to pull; the first subscriber that pulls
/// resolves, diffs and encodes every pending span once and queues the same
/// bytes to all of them (`bringUpToDate`). A view nobody reads therefore costs
/// one append per commit and no layout work, and what its pending spans hold
/// is bounded (`SubscriptionGroup.published`).
///
/// The scene's isolation guards the dictionary of channels; the lock guards
/// each group, because a subscriber's pull reaches it from the connection.
/// Order: this lock, then a subscriber's, never the other way.
final class ViewChannel: Sendable {
  /// The view this channel serves.
  let view: DocumentView
  private let group: Mutex<SubscriptionGroup>
  /// The scene's documents, which this one's counts toward.
  private let cache: LayoutCache
  /// How many times the view's document was brought up to date by a pull, a subscribe or
  /// an event (tests: work done only where someone reads).
  private let computed = Atomic<Int>(0)

  /// The channel of `view` at `version`, whose state is `state`, its document counted in `cache`.
  init(_ view: DocumentView, version: UInt64, state: SceneState, cache: LayoutCache) {
    self.view = view
    self.cache = cache
    group = Mutex(SubscriptionGroup(view, version: version, state: state))
  }

  /// Runs `body` on the group, under its lock.
  func withGroup<Result>(_ body: (inout SubscriptionGroup) -> Result) -> Result {
    group.withLock { body(&$0) }
  }

  /// Resolves, diffs and encodes the spans committed since the view was last brought up
  /// to date, and queues them to every subscriber: what a pull, a subscribe and an event
  /// need first. Nothing when none is pending.
  func bringUpToDate() {
    guard group.withLock({ $0.bringUpToDate() }) else { return }
    computed.add(1, ordering: .relaxed)
    used()
  }

  /// Counts the view's live document as just used in the scene's cache, and evicts the
  /// views that puts over its bound (outside this channel's lock).
  func used() {
    for evicted in cache.used(self, bytes: group.withLock(\.residentBytes)) { evicted.evict() }
  }

  /// Lets go of the live document (`LayoutCache`).
  func evict() { group.withLock { $0.evict() } }

  /// Nobody follows the view any more: its document no longer counts in the cache.
  func forgotten() { cache.forget(self) }

  /// Whether the view holds its live document (tests: eviction).
  var isLive: Bool { group.withLock { $0.live != nil } }

  /// How many times pending spans were computed (`bringUpToDate`).
  var computations: Int { computed.load(ordering: .relaxed) }
}

/// A committed span of versions a view has not computed yet: the state after it, its
/// last version's entry and what its ops may have changed (`LayoutChange`).
struct PendingSpan: Sendable {
  var state: SceneState
  var last: LogEntry
  var change: LayoutChange
  /// What every view of `state` resolves alike, made once for all of them.
  var shared = SharedResolution()
  /// The updates views of one placement share, encoded once for all of them.
  var updates = SharedUpdates()
  /// Several spans made one (`SubscriptionGroup.published`): its update is coalesced.
  var coalesced = false
}

extension SubscriptionGroup {
  /// The scene committed `span`: it waits for the next pull. The first pending span tells
  /// every subscriber it has something to pull (`Subscriber.stalePublished`); later ones
  /// cost an append.
  ///
  /// Bounded like a slow subscriber's queue: once the pending spans would make more than
  /// `limit` bytes of updates (the view's last update's size each; its document's before
  /// its first), they become one
  /// coalesced span from the view's current document to the newest state, as a queue past
  /// its limit coalesces (PROTOCOL.md §6), and its events are lost with it.
  mutating func published(_ span: PendingSpan, limit: Int) {
    if pending.isEmpty {
      var gone: [UInt64] = []
      let members = subscribers.members
      for index in members.indices where !members[index].stalePublished() { gone.append(members[index].id) }
      for id in gone { subscribers.remove(id) }
      pending.append(span)
      return
    }
    let (bytes, overflow) = (pending.count + 1).multipliedReportingOverflow(
      by: max(updateBytes > 0 ? updateBytes : documentBytes, 1))
    if !overflow, bytes <= limit {
      pending.append(span)
      return
    }
    var merged = span
    merged.coalesced = true
    for earlier in pending { merged.change.formUnion(earlier.change) }
    pending = [merged]
  }

  /// `ViewChannel.bringUpToDate`, under the lock: true when it computed something.
  mutating func bringUpToDate() -> Bool {
    guard !pending.isEmpty else { return false }
    let spans = pending
    pending = []
    let start = current
    var chunk: [UInt8] = []
    for span in spans {
      guard
        let update = advance(
          to: span.state, at: span.last, change: span.change, shared: span.shared, updates: span.updates,
          coalesced: span.coalesced)
      else { continue }
      if chunk.isEmpty { chunk = update } else { chunk += update }
    }
    updateBytes = chunk.count / spans.count
    queue(chunk, from: start, coalesced: spans.contains { $0.coalesced })
    return true
  }
}
