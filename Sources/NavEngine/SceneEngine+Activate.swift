import NavModel

/// Activations: watchers (`WatchActions`) get each one as an `activation`
/// frame, subscribers as an `events` frame at the current version.
extension SceneEngine {
  /// Adds a watcher of activations (`WatchActions`); its first frame,
  /// `watching`, tells the client the watch is registered. Past
  /// `maxSubscribersPerScene` streams it throws LimitExceeded and adds nothing.
  public func watchActions(_ watcher: Subscriber) throws(NavError) {
    try core.admitStream()
    guard watcher.watching(scene: name, first: watcher.encode(.watching(scene: name, version: core.version))) else {
      return
    }
    core.actionWatchers[watcher.id] = watcher
    let id = watcher.id
    watcher.addCancelHook { [weak self] in
      self?.enter { $0.core.actionWatchers[id] = nil }
    }
  }

  /// A front end activates an item: it must be shown (with the `metrics` it drew) and enabled.
  /// `watchers` is how many watchers queued the action (a watcher whose queue is
  /// full drops it and is told later); subscribers get an `events` frame.
  public func activate(_ itemId: String, metrics: LayoutMetrics = .defaults) throws(NavError) -> (
    action: String?, watchers: Int
  ) {
    try core.activate(itemId, metrics: metrics)
  }

  /// Activating the back button pops the top item (SEMANTICS R60): allowed
  /// only while the back button is shown and enabled on a visible bar. The pop
  /// expects the top the front end saw (`expectTop`, else the current top), so
  /// a front end never pops a screen it did not show. `item` is the name the
  /// call gave the back button (`ActivateCall.backButtonItem`), the error's `value`.
  /// `completion` gets the result as `submit`'s does.
  public func activateBack(
    item: String, metrics: LayoutMetrics = .defaults, expectTop: String?, client: String,
    completion: @escaping Completion
  ) {
    let layout = LayoutResolver.resolve(core.state, metrics: metrics)
    guard !layout.navigationBar.hidden, let back = layout.navigationBar.backButton, back.enabled else {
      completion(
        .failure(
          NavError(
            .itemNotActivatable, "the back button is not shown and enabled, so it cannot be activated", field: "item",
            value: item)))
      return
    }
    let top = expectTop ?? layout.navigationBar.topItem
    receive(MutationRequest(ops: [.pop(expectTop: top, animated: true)], client: client), completion)
  }
}

extension SceneCore {
  /// `SceneEngine.activate`.
  mutating func activate(_ itemId: String, metrics: LayoutMetrics) throws(NavError) -> (
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
    var activation = SharedFrame(
      .activation(scene: name, item: itemId, action: item.action, tag: item.tag, version: version))
    var queued = 0
    for (id, watcher) in actionWatchers {
      switch watcher.activationPublished(activation.bytes(for: watcher), version: version) {
      case .queued: queued += 1
      case .dropped: counters.droppedActivations += 1
      case .closed: actionWatchers[id] = nil
      }
    }
    var events = SharedFrame(
      .events(version: version, events: [.activate(item: itemId, action: item.action, tag: item.tag)]))
    // The events follow the updates before them: each view is brought up to date first.
    bringViewsUpToDate()
    for (view, channel) in groups {
      let (members, newest, newestFrom) = channel.withGroup { ($0.subscribers.members, $0.current, $0.lastUpdateFrom) }
      for subscriber in members
      where !subscriber.eventsPublished(events.bytes(for: subscriber), newest: newest, newestFrom: newestFrom) {
        unsubscribe(subscriber.id, view: view)
      }
    }
    return (item.action, queued)
  }
}
