import NavModel

/// Subscribing: the current document (or the patches since `sinceVersion`)
/// first, then every change, with nothing in between.
extension SceneEngine {
  /// Adds `subscriber` to `view`, queueing its first replies atomically with
  /// respect to commits. `sinceVersion` still in the op log resumes with one
  /// update per version since then; otherwise a snapshot comes first.
  ///
  /// `epoch` is the epoch `sinceVersion` came from; another epoch's version
  /// always gets a snapshot.
  public func subscribe(_ subscriber: Subscriber, view: DocumentView, sinceVersion: UInt64?, epoch: String? = nil)
    throws(NavError)
  {
    guard subscriberCount < configuration.maxSubscribersPerScene else {
      throw NavError(
        .limitExceeded, "scene \"\(name)\" already has \(subscriberCount) subscribers", field: "scene",
        value: name, limit: "maxSubscribersPerScene", max: configuration.maxSubscribersPerScene)
    }
    var group = groups[view] ?? SubscriptionGroup(document: view.document(of: state))
    let moment = now()
    if let since = sinceVersion, epoch == nil || epoch == self.epoch, since <= version, log.holds(since),
      let sinceState = log.state(at: since)
    {
      var replayed = sinceState
      var document = view.document(of: sinceState)
      subscriber.start(version: since, document: document)
      for entry in log.entries(after: since) {
        replayed = log.replay(entry, on: replayed)
        let next = view.document(of: replayed)
        let bytes = Self.updateBytes(
          fromVersion: entry.version - 1, toVersion: entry.version, patch: PatchBuilder.diff(document, next),
          animated: entry.animated, events: .array(entry.events.map(\.json)))
        _ = subscriber.enqueue(.init(parameters: bytes, toVersion: entry.version, document: next), now: moment) {
          from, fromDocument in
          .init(
            parameters: Self.updateBytes(
              fromVersion: from, toVersion: entry.version, patch: PatchBuilder.diff(fromDocument, next),
              animated: false, events: .array([]), coalesced: true), toVersion: entry.version, document: next)
        }
        document = next
      }
    } else {
      subscriber.start(version: version, document: group.document)
      let bytes = Self.snapshotBytes(version: version, epoch: self.epoch, view: view, document: group.document)
      _ = subscriber.enqueue(.init(parameters: bytes, toVersion: version, document: group.document), now: moment) {
        _, _ in .init(parameters: bytes, toVersion: self.version, document: group.document)
      }
    }
    group.subscribers[subscriber.id] = subscriber
    groups[view] = group
    subscriberCount += 1
    let id = subscriber.id
    subscriber.setCancelHook { [weak self] in
      Task { await self?.unsubscribe(id, view: view) }
    }
  }

  func unsubscribe(_ id: UInt64, view: DocumentView) {
    guard groups[view]?.subscribers.removeValue(forKey: id) != nil else { return }
    subscriberCount -= 1
    if groups[view]?.subscribers.isEmpty == true { groups[view] = nil }
  }

  /// Adds a watcher of activations (`WatchActions`).
  public func watchActions(_ watcher: Subscriber) {
    actionWatchers[watcher.id] = watcher
    let id = watcher.id
    watcher.setCancelHook { [weak self] in
      Task { await self?.removeWatcher(id) }
    }
  }

  func removeWatcher(_ id: UInt64) { actionWatchers[id] = nil }

  /// A front end activates an item: it must be shown (with the `metrics` it drew) and enabled.
  /// Watchers get the action; subscribers get an `events` reply at the current version.
  public func activate(_ itemId: String, metrics: LayoutMetrics = .defaults) throws(NavError) -> (
    action: String?, watchers: Int
  ) {
    guard let item = state.barButtonItems[itemId] else {
      throw NavError(.itemNotFound, "no bar button item \"\(itemId)\"", field: "item", value: itemId)
    }
    let layout = LayoutResolver.resolve(state, metrics: metrics)
    guard layout.isActivatable(itemId) else {
      throw NavError(
        .itemNotActivatable,
        "bar button item \"\(itemId)\" is not shown and enabled\(metrics.width.map { " at width \($0)" } ?? ""), so it cannot be activated",
        field: "item", value: itemId)
    }
    let moment = now()
    let event = SceneEvent.activate(item: itemId, action: item.action, tag: item.tag)
    let actionBytes = JSONWriter.bytes([
      "scene": .string(name), "item": .string(itemId), "action": item.action.map { .string($0) } ?? .null,
      "tag": .number(Double(item.tag)), "version": .number(Double(version)),
    ])
    var delivered = 0
    for (id, watcher) in actionWatchers {
      let result = watcher.enqueue(.init(parameters: actionBytes, toVersion: version, document: nil), now: moment) {
        _, _ in .init(parameters: actionBytes, toVersion: self.version, document: nil)
      }
      if case .queued = result {
        delivered += 1
      } else if case .coalesced = result {
        delivered += 1
      } else {
        actionWatchers[id] = nil
      }
    }
    let eventBytes = JSONWriter.bytes([
      "kind": "events", "version": .number(Double(version)), "events": [event.json],
    ])
    for (_, group) in groups {
      for (_, subscriber) in group.subscribers {
        _ = subscriber.enqueue(.init(parameters: eventBytes, toVersion: version, document: group.document), now: moment)
        {
          from, fromDocument in
          .init(
            parameters: Self.updateBytes(
              fromVersion: from, toVersion: self.version, patch: PatchBuilder.diff(fromDocument, group.document),
              animated: false, events: .array([]), coalesced: true), toVersion: self.version, document: group.document)
        }
      }
    }
    return (item.action, delivered)
  }
}

extension SceneEngine {
  /// The reserved item name for the back button in `Activate` (ids start with a letter or digit).
  public static let backButtonItem = "@back"

  /// Activating the back button pops the top item (SEMANTICS R60): allowed
  /// only while the back button is shown and enabled on a visible bar. The pop
  /// expects the top the front end saw (`expectTop`, else the current top), so
  /// a front end never pops a screen it did not show.
  public func activateBack(metrics: LayoutMetrics = .defaults, expectTop: String?, client: String) async -> Result<
    MutationOutcome, NavError
  > {
    let layout = LayoutResolver.resolve(state, metrics: metrics)
    guard !layout.navigationBar.hidden, let back = layout.navigationBar.backButton, back.enabled else {
      return .failure(
        NavError(
          .itemNotActivatable, "the back button is not shown and enabled, so it cannot be activated", field: "item",
          value: Self.backButtonItem))
    }
    let top = expectTop ?? layout.navigationBar.topItem
    return await mutate(MutationRequest(ops: [.pop(expectTop: top, animated: true)], client: client))
  }
}
