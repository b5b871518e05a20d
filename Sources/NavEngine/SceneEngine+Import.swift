import NavModel

/// Replacing a scene's history by an imported state (`Import`, PROTOCOL.md §3): the old
/// history ends durably and its streams go on with the new one, each from a snapshot.
extension SceneEngine {
  /// The streams a replaced history fed, handed to the scene that replaces it.
  struct Streams: Sendable {
    var subscribers: [(view: DocumentView, subscriber: Subscriber)] = []
    var watchers: [Subscriber] = []
  }

  /// Ends this history in favour of `replacement` (a new epoch at the imported state):
  /// no mutation is planned here any more (those planned meanwhile are refused with
  /// `replacedWhileQueued`), a group being stored finishes first, then the store commits
  /// `record` (the imported snapshot). Once it is stored, `install` puts `replacement` in
  /// this scene's place, and every subscriber and watcher moves to it in the same turn of the
  /// executor: subscribers get its snapshot after what was queued for them. A failed store
  /// leaves this scene as it was (`StorageFailed`); nothing is installed.
  func replace(
    with replacement: SceneEngine, record: CommitRecord, install: () -> Void
  ) async -> Result<SceneCounters, NavError> {
    guard !core.deleted else {
      return .failure(NavError(.sceneNotFound, "scene \"\(name)\" was deleted", field: "scene", value: name))
    }
    core.deleted = true
    core.replaced = true
    await whenNotStoring()
    do {
      try await store.commit([record])
    } catch {
      core.deleted = false
      core.replaced = false
      return .failure(
        NavError(
          .storageFailed, "the import of scene \"\(name)\" could not be stored: \(error.message); nothing changed"))
    }
    var streams = Streams()
    for (view, channel) in core.groups {
      for subscriber in channel.withGroup(\.subscribers.members) { streams.subscribers.append((view, subscriber)) }
    }
    streams.watchers = Array(core.actionWatchers.values)
    core.groups = [:]
    core.actionWatchers = [:]
    install()
    // Every scene runs on the one executor, so this runs now, in this turn.
    let moving = streams
    replacement.enter { $0.adopt(moving) }
    return .success(core.counters)
  }

  /// Takes over the streams of the history this scene replaced.
  private func adopt(_ streams: Streams) {
    for (view, subscriber) in streams.subscribers where core.adopt(subscriber, view: view) {
      let id = subscriber.id
      subscriber.addCancelHook { [weak self] in
        self?.enter { $0.core.unsubscribe(id, view: view) }
      }
    }
    for watcher in streams.watchers where !watcher.isClosed {
      core.actionWatchers[watcher.id] = watcher
      let id = watcher.id
      watcher.addCancelHook { [weak self] in
        self?.enter { $0.core.actionWatchers[id] = nil }
      }
    }
  }
}

extension SceneCore {
  /// `SceneEngine.adopt`: the subscriber gets this history's snapshot of `view` after what
  /// it has queued, and is added (false: its stream closed meanwhile).
  mutating func adopt(_ subscriber: Subscriber, view: DocumentView) -> Bool {
    let channel = groups[view] ?? ViewChannel(view, version: version, state: state, cache: layoutCache)
    // The snapshot is of the current version: the view's pending spans are computed first.
    channel.bringUpToDate()
    let added = channel.withGroup { group in
      let snapshot = snapshot(of: &group, view: view, for: subscriber)
      guard subscriber.restarted(first: snapshot.frame, base: group.current, channel: channel) else { return false }
      group.subscribers.add(subscriber)
      return true
    }
    guard added else { return false }
    if groups[view] == nil { groups[view] = channel }
    channel.used()
    return true
  }
}

extension CommitRecord {
  /// The record that replaces `scene`'s history by `state` at `version` in the new `epoch`:
  /// the store drops the old history's log and remembered ids (a new epoch) and keeps `state`
  /// as the snapshot at `version`.
  static func imported(scene: String, epoch: String, version: UInt64, state: SceneState) -> CommitRecord {
    CommitRecord(
      scene: scene, epoch: epoch, version: version, client: "", mutationId: nil, opsDigest: 0, ops: [], encodedOps: [],
      outcome: MutationOutcome(version: version, overwritten: [], baseVersionExpired: false, replayed: false),
      snapshot: state, forgetMutationIdsThrough: 0)
  }
}
