import NavModel

/// Deleting a scene (`DeleteScene`, PROTOCOL.md §3): the history ends, durably, and every
/// stream of it is handed back to the caller to end.
extension SceneEngine {
  /// What a deletion ended: the history's last version and epoch, and the streams
  /// (subscribers and action watchers, by `Subscriber.id`) the scene no longer feeds.
  public struct Deletion: Sendable, Equatable {
    /// The version the scene had when it was deleted.
    public var version: UInt64
    /// The epoch of the history that ended.
    public var epoch: String
    /// Every stream the scene fed; nothing more is published to them.
    public var streams: [UInt64]
    /// What the scene counted (the engine keeps it in its totals).
    public var counters: SceneCounters
  }

  /// Ends this history: no mutation is planned on it any more (those planned after the
  /// deletion fail with `deletedWhileQueued`), a group being stored finishes first, then
  /// the store records the deletion. With `ifVersion`, the scene must be at that version
  /// (else `Conflict` with `currentVersion`, and nothing changes). A failed store leaves the
  /// scene as it was (`StorageFailed`).
  ///
  /// On success the scene drops its subscribers and watchers (returned in `streams`) and
  /// publishes nothing more; the caller removes it from the engine.
  public func delete(ifVersion: UInt64?) async -> Result<Deletion, NavError> {
    guard !core.deleted else {
      return .failure(NavError(.sceneNotFound, "scene \"\(name)\" was deleted", field: "scene", value: name))
    }
    core.deleted = true
    // A group the store is working on was planned before the deletion: it commits first (its
    // result arrives as a job on the executor). What is planned after it is refused.
    await whenNotStoring()
    let version = core.version
    if let ifVersion, ifVersion != version {
      core.deleted = false
      return .failure(
        NavError(
          .conflict, "scene \"\(name)\" is at version \(version), not \(ifVersion); nothing was deleted",
          field: "ifVersion", value: "\(ifVersion)", extra: ["currentVersion": .number(Double(version))]))
    }
    do {
      try await store.commit([CommitRecord.deletion(of: name)])
    } catch {
      core.deleted = false
      return .failure(
        NavError(.storageFailed, "the deletion could not be stored: \(error.message); nothing was deleted"))
    }
    var streams = core.actionWatchers.keys.sorted()
    for channel in core.groups.values {
      streams += channel.withGroup(\.subscribers.members).map(\.id)
      channel.forgotten()
    }
    core.groups = [:]
    core.actionWatchers = [:]
    return .success(Deletion(version: version, epoch: epoch, streams: streams, counters: core.counters))
  }
}

extension SceneCore {
  /// What a mutation planned after a deletion of its scene is answered: nothing was applied,
  /// and a retry goes to the scene's next history (a new epoch).
  var deletedWhileQueued: NavError {
    if replaced {
      return NavError(
        .conflict,
        "scene \"\(name)\" was replaced (Import) while this mutation was queued; nothing was applied; "
          + "a retry applies to the imported state", field: "scene", value: name)
    }
    return NavError(
      .conflict,
      "scene \"\(name)\" was deleted (DeleteScene) while this mutation was queued; nothing was applied; "
        + "a retry creates the scene anew", field: "scene", value: name)
  }
}
