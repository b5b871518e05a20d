import NavModel

/// Subscribing: the current document (or the patches since `sinceVersion`)
/// first, then every change, with nothing in between.
extension SceneEngine {
  /// Adds `subscriber` to `view`, queueing its first frames atomically with
  /// respect to commits. `sinceVersion` still in the op log resumes with one
  /// update per version since then, unless that costs more than a snapshot
  /// (`resumeCost`); otherwise a snapshot comes first.
  ///
  /// `epoch` is the epoch `sinceVersion` came from; another epoch's version
  /// always gets a snapshot.
  public func subscribe(_ subscriber: Subscriber, view: DocumentView, sinceVersion: UInt64?, epoch: String? = nil)
    throws(NavError)
  {
    guard try core.subscribe(subscriber, view: view, sinceVersion: sinceVersion, epoch: epoch) else { return }
    let id = subscriber.id
    subscriber.addCancelHook { [weak self] in
      self?.enter { $0.core.unsubscribe(id, view: view) }
    }
  }

  /// Forgets subscribers and watchers whose stream closed but whose cancel hook has not run yet.
  func pruneClosedSubscribers() { core.pruneClosedSubscribers() }
}

extension SceneCore {
  /// `SceneEngine.subscribe`: true once `subscriber` is added (false: its stream closed meanwhile).
  mutating func subscribe(_ subscriber: Subscriber, view: DocumentView, sinceVersion: UInt64?, epoch: String?)
    throws(NavError) -> Bool
  {
    try admitStream()
    let channel = groups[view] ?? ViewChannel(view, version: version, state: state, cache: layoutCache)
    // The snapshot is of the current version: the view's pending spans are computed first.
    channel.bringUpToDate()
    let added = channel.withGroup { group in
      subscribe(subscriber, to: &group, on: channel, sinceVersion: sinceVersion, epoch: epoch)
    }
    guard added else { return false }
    if groups[view] == nil { groups[view] = channel }
    channel.used()
    return true
  }

  /// `subscribe`'s part under the channel's lock.
  private func subscribe(
    _ subscriber: Subscriber, to group: inout SubscriptionGroup, on channel: ViewChannel, sinceVersion: UInt64?,
    epoch: String?
  ) -> Bool {
    let view = channel.view
    let snapshot = snapshot(of: &group, view: view, for: subscriber)
    var first = [snapshot.frame]
    if let since = sinceVersion, epoch == nil || epoch == self.epoch, since <= version, log.holds(since),
      resumeCost(since: since, documentBytes: snapshot.documentBytes) <= configuration.resumeBudgetBytes
    {
      first = resumeUpdates(view: view, since: since).map(subscriber.encode)
    }
    guard subscriber.subscribed(first: first, base: group.current, channel: channel) else { return false }
    group.subscribers.add(subscriber)
    return true
  }

  /// The view's snapshot frame at the current version, encoded once per version (by the
  /// first subscriber that needs it) and kept in the group for the others.
  func snapshot(of group: inout SubscriptionGroup, view: DocumentView, for subscriber: Subscriber) -> (
    frame: [UInt8], documentBytes: Int
  ) {
    let snapshot =
      group.snapshot
      ?? {
        let parameters = subscriber.encodeParameters(
          .snapshot(version: version, epoch: self.epoch, view: view, document: group.current.document))
        return (subscriber.framed(parameters), parameters.count)
      }()
    group.snapshot = snapshot
    group.documentBytes = snapshot.documentBytes
    return snapshot
  }

  /// What resuming from `since` costs, in bytes of documents built and
  /// diffed: one document of the view per version to replay (PROTOCOL.md §6,
  /// "Resuming"). A snapshot costs one.
  func resumeCost(since: UInt64, documentBytes: Int) -> Int {
    let versions = Int(clamping: version - since)
    let (product, overflow) = versions.multipliedReportingOverflow(by: max(documentBytes, 1))
    return overflow ? Int.max : product
  }

  /// One update per version after `since`, recomputed for `view` (`since` must be held).
  private func resumeUpdates(view: DocumentView, since: UInt64) -> [StreamFrame] {
    guard let sinceState = log.state(at: since) else {
      preconditionFailure("resume: the op log holds version \(since) but cannot rebuild it")
    }
    var replayed = sinceState
    var document = LiveDocument(view, of: sinceState)
    var updates: [StreamFrame] = []
    for entry in log.entries(after: since) {
      replayed = log.replay(entry, on: replayed)
      let patch = document.update(to: replayed, change: LayoutChange(ops: entry.ops, in: replayed))
      updates.append(
        .update(
          fromVersion: entry.version - 1, toVersion: entry.version, patch: patch, animated: entry.animated,
          events: entry.events, coalesced: false))
    }
    return updates
  }

  mutating func unsubscribe(_ id: UInt64, view: DocumentView) {
    guard let channel = groups[view] else { return }
    if channel.withGroup({ group in
      group.subscribers.remove(id)
      return group.subscribers.isEmpty
    }) {
      groups[view] = nil
      channel.forgotten()
    }
  }

  /// Forgets subscribers and watchers whose stream closed but whose
  /// `unsubscribe` has not run yet, so counts and limits see only live ones.
  mutating func pruneClosedSubscribers() {
    for (view, channel) in groups {
      let closed = channel.withGroup { $0.subscribers.members.filter(\.isClosed).map(\.id) }
      for id in closed { unsubscribe(id, view: view) }
    }
    for (id, watcher) in actionWatchers where watcher.isClosed { actionWatchers[id] = nil }
  }

  /// Refuses one more stream when the scene already serves `maxSubscribersPerScene`
  /// (subscribers and `WatchActions` watchers together, PROTOCOL §9.12).
  ///
  /// Closed streams are pruned only when the members reach the limit: pruning
  /// looks at every member, and doing it on every call would make subscribing N
  /// streams cost N².
  mutating func admitStream() throws(NavError) {
    guard !deleted else {
      throw NavError(.sceneNotFound, "scene \"\(name)\" was deleted", field: "scene", value: name)
    }
    var count = memberCount
    if count >= configuration.maxSubscribersPerScene {
      pruneClosedSubscribers()
      count = memberCount
    }
    guard count < configuration.maxSubscribersPerScene else {
      throw NavError(
        .limitExceeded, "scene \"\(name)\" already has \(count) subscribers and watchers", field: "scene",
        value: name, limit: "maxSubscribersPerScene", max: configuration.maxSubscribersPerScene)
    }
  }

  /// Subscribers and watchers held, closed ones not yet removed included.
  private var memberCount: Int {
    groups.values.reduce(0) { total, channel in total + channel.withGroup(\.subscribers.count) } + actionWatchers.count
  }

  /// Live subscribers of every view: derived from membership, so it cannot drift.
  var subscriberCount: Int {
    groups.values.reduce(0) { total, channel in
      total + channel.withGroup { $0.subscribers.members.count { !$0.isClosed } }
    }
  }

  /// Live `WatchActions` watchers.
  var watcherCount: Int { actionWatchers.values.count { !$0.isClosed } }
}
