import NavModel

/// Fan-out: every committed version becomes one update per view, resolved,
/// diffed and encoded once, and the same bytes are queued to every
/// subscriber of that view. No subscriber costs a diff here: one that is
/// behind coalesces when it next pulls (`SubscriberQueue`).
extension SceneEngine {
  /// `state` is the state after `entry`.
  func publish(_ entry: LogEntry, state: SceneState) {
    for (view, var group) in groups {
      let document = view.document(of: state)
      var update = SharedFrame(
        .update(
          fromVersion: entry.version - 1, toVersion: entry.version,
          patch: PatchBuilder.diff(group.current.document, document), animated: entry.animated, events: entry.events,
          coalesced: false))
      group.current = VersionedDocument(version: entry.version, document: document)
      group.snapshot = nil
      var gone: [UInt64] = []
      for (id, subscriber) in group.subscribers
      where !subscriber.updatePublished(update.bytes(for: subscriber), newest: group.current) {
        gone.append(id)
      }
      for id in gone { group.subscribers[id] = nil }
      groups[view] = group.subscribers.isEmpty ? nil : group
    }
  }
}
