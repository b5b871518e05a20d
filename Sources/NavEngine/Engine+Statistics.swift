import NavModel

/// The engine's part of `GetStatistics` (PROTOCOL.md §3): every scene's statistics, the
/// totals (deleted scenes' counts included, so no counter goes down), and each uid's use of
/// its scene quotas.
extension Engine {
  /// One uid's scenes and waited names against its quotas (`--max-scenes-per-uid`,
  /// `--max-waited-scenes-per-uid`); exempt uids (root, navd's own) have none.
  public struct UserUsage: Sendable, Hashable {
    /// The uid.
    public var uid: UInt32
    /// Scenes its mutations created, existing or being created.
    public var scenes: Int
    /// Names of scenes not yet made that its subscribers wait for.
    public var waitedScenes: Int
  }

  /// The engine's statistics at one moment.
  public struct Statistics: Sendable {
    /// Every existing scene by name, sorted.
    public var scenes: [(name: String, statistics: SceneEngine.Statistics)]
    /// Every scene's counters together, deleted scenes' included.
    public var totals: SceneCounters
    /// Subscribers waiting for scenes that do not exist yet.
    public var waitingSubscribers: Int
    /// Per uid with a quota in use, sorted by uid.
    public var users: [UserUsage]

  }

  /// The store's files' sizes now.
  public var storeSizes: StoreSizes { store.sizes }

  /// Every scene's statistics (one hop onto each scene's actor) and the totals.
  public func statistics() async -> Statistics {
    var scenes: [(name: String, statistics: SceneEngine.Statistics)] = []
    var totals = retired.withLock { $0 }
    for name in sceneNames {
      guard let scene = try? scene(name) else { continue }
      let statistics = await scene.statistics
      totals.add(statistics.counters)
      scenes.append((name, statistics))
    }
    var waiting = 0
    for scene in waitedScenes { waiting += await scene.statistics.subscribers }
    let users = slots.withLock { slots in
      var usage: [UInt32: UserUsage] = [:]
      for slot in slots.values {
        if slot.isScene, let owner = slot.owner {
          usage[owner, default: UserUsage(uid: owner, scenes: 0, waitedScenes: 0)].scenes += 1
        }
        guard slot.isWaited else { continue }
        for uid in slot.waiters.keys {
          usage[uid, default: UserUsage(uid: uid, scenes: 0, waitedScenes: 0)].waitedScenes += 1
        }
      }
      return usage.values.sorted { $0.uid < $1.uid }
    }
    return Statistics(scenes: scenes, totals: totals, waitingSubscribers: waiting, users: users)
  }
}
