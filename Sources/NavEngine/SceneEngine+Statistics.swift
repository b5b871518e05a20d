import NavModel

/// One scene's part of `GetStatistics` (PROTOCOL.md §3): its counters and its gauges, read
/// on the scene's actor.
extension SceneEngine {
  /// A scene's statistics at one moment.
  public struct Statistics: Sendable, Hashable {
    /// The scene's version.
    public var version: UInt64
    /// Its epoch.
    public var epoch: String
    /// What it counted since it started.
    public var counters: SceneCounters
    /// Open `Subscribe` streams (waiting ones that followed its creation included).
    public var subscribers: Int
    /// Open `WatchActions` streams.
    public var watchers: Int
    /// Bytes queued in those streams, not yet taken by their connections.
    public var queuedBytes: Int
    /// Updates coalesced (PROTOCOL.md §6) for the subscribers open now.
    public var coalescedUpdates: Int
  }

  /// The scene's statistics now. The gauges look at each stream (a lock each): this runs
  /// when asked, never on a commit.
  public var statistics: Statistics {
    var queued = 0
    var coalesced = 0
    var subscribers = 0
    for channel in core.groups.values {
      for subscriber in channel.withGroup(\.subscribers.members) where !subscriber.isClosed {
        subscribers += 1
        queued += subscriber.pendingBytes
        coalesced += subscriber.coalescedCount
      }
    }
    var watchers = 0
    for watcher in core.actionWatchers.values where !watcher.isClosed {
      watchers += 1
      queued += watcher.pendingBytes
    }
    return Statistics(
      version: core.version, epoch: epoch, counters: core.counters, subscribers: subscribers, watchers: watchers,
      queuedBytes: queued, coalescedUpdates: coalesced)
  }
}
