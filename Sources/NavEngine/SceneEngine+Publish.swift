import NavModel

/// Fan-out: every committed version becomes one update per view, resolved,
/// diffed and encoded once, and the same bytes are queued to every
/// subscriber of that view. No subscriber costs a diff here: one that is
/// behind coalesces when it next pulls (`SubscriberQueue`).
extension SceneEngine {
  /// Publishes an installed group, whose first version follows `before`.
  ///
  /// The plan holds only its last state, so the states in between are
  /// rebuilt by replaying the entries' ops (none for a group of one). Each
  /// view's updates for the whole group are framed into one chunk, queued to
  /// each of its subscribers at once: one lock and one wake per subscriber
  /// per group, however many versions it holds, and the same bytes for all.
  func publish(_ plan: GroupPlan, after before: SceneState) {
    guard !groups.isEmpty else { return }
    var chunks: [DocumentView: [UInt8]] = [:]
    var state = before
    let views = Array(groups.keys)  // not `groups.keys`: `update` changes `groups` as it goes
    for (index, planned) in plan.versions.enumerated() {
      state = index == plan.versions.count - 1 ? plan.state : log.replay(planned.entry, on: state)
      for view in views { chunks[view, default: []] += update(view, to: state, after: planned.entry) }
    }
    for (view, chunk) in chunks {
      // Taken out while it changes, so dropping a closed subscriber never copies the others.
      guard var group = groups.removeValue(forKey: view) else { continue }
      var gone: [UInt64] = []
      for (id, subscriber) in group.subscribers where !subscriber.updatePublished(chunk, newest: group.current) {
        gone.append(id)
      }
      for id in gone { group.subscribers[id] = nil }
      if !group.subscribers.isEmpty { groups[view] = group }
    }
  }

  /// The framed update of `view` to `state` (the state after `entry`); the
  /// view's current document becomes `state`'s.
  private func update(_ view: DocumentView, to state: SceneState, after entry: LogEntry) -> [UInt8] {
    guard var group = groups[view], let encoder = group.subscribers.first?.value else { return [] }
    group.live.update(to: state)
    let document = group.live.json
    let update = encoder.encode(
      .update(
        fromVersion: entry.version - 1, toVersion: entry.version,
        patch: PatchBuilder.diff(group.current.document, document), animated: entry.animated, events: entry.events,
        coalesced: false))
    group.current = VersionedDocument(version: entry.version, document: document)
    group.snapshot = nil
    groups[view] = group
    return update
  }
}
