import NavModel

/// Fan-out: a committed group becomes one update per view per span of its
/// versions (`UpdateSpans`: usually the whole group), resolved, diffed and
/// encoded once, and the same bytes are queued to every subscriber of that
/// view. No subscriber costs a diff here: one that is behind coalesces when
/// it next pulls (`SubscriberQueue`).
extension SceneEngine {
  /// Publishes an installed group, whose first version follows `before`.
  ///
  /// The plan holds only its last state, so the state at the end of a span
  /// that is not the last is rebuilt by replaying the entries' ops (none when
  /// the group is one span). Each view's updates for the whole group are
  /// framed into one chunk, queued to each of its subscribers at once: one
  /// lock and one wake per subscriber per group, however many versions it
  /// holds, and the same bytes for all.
  func publish(_ plan: GroupPlan, after before: SceneState) {
    guard !groups.isEmpty else { return }
    let views = Array(groups.keys)
    var chunks = [[UInt8]](repeating: [], count: views.count)
    var state = before
    var replayed = 0
    for span in UpdateSpans.of(plan.versions.lazy.map(\.entry)) {
      if span.upperBound == plan.versions.count {
        state = plan.state
      } else {
        for planned in plan.versions[replayed..<span.upperBound] { state = log.replay(planned.entry, on: state) }
      }
      replayed = span.upperBound
      let last = plan.versions[span.upperBound - 1].entry
      for (index, view) in views.enumerated() {
        // In place (the dictionary's modify accessor): a copy of the group would copy its documents' references.
        guard let update = groups[view]?.advance(to: state, at: last) else { continue }
        if chunks[index].isEmpty { chunks[index] = update } else { chunks[index] += update }
      }
    }
    for (view, chunk) in zip(views, chunks) where !chunk.isEmpty {
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
}

extension SubscriptionGroup {
  /// Moves the view's document to `state`, the state after `last`, and returns
  /// the framed update from the current version to `last`'s, with `last`'s
  /// `animated` and events (a span of several versions carries none: `UpdateSpans`).
  mutating func advance(to state: SceneState, at last: LogEntry) -> [UInt8]? {
    guard let encoder = subscribers.first?.value else { return nil }
    live.update(to: state)
    let document = live.json
    let update = encoder.encode(
      .update(
        fromVersion: current.version, toVersion: last.version, patch: PatchBuilder.diff(current.document, document),
        animated: last.animated, events: last.events, coalesced: false))
    current = VersionedDocument(version: last.version, document: document)
    snapshot = nil
    return update
  }
}
