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
  ///
  /// The subscription groups are taken out of `groups` for the whole of it,
  /// so each changes in place (a group copied out of the dictionary would
  /// copy every reference its documents hold) and dropping a closed
  /// subscriber never copies the others.
  func publish(_ plan: GroupPlan, after before: SceneState) {
    guard !groups.isEmpty else { return }
    var published: [(view: DocumentView, group: SubscriptionGroup, chunk: [UInt8])] = []
    published.reserveCapacity(groups.count)
    while let (view, group) = groups.popFirst() { published.append((view, group, [])) }
    var replayed: (state: SceneState, through: Int)?
    for span in UpdateSpans.of(plan.versions.lazy.map(\.entry)) {
      let last = plan.versions[span.upperBound - 1].entry
      if span.upperBound == plan.versions.count {
        Self.advance(&published, to: plan.state, at: last)
      } else {
        var state = replayed?.state ?? before
        for planned in plan.versions[(replayed?.through ?? 0)..<span.upperBound] {
          state = log.replay(planned.entry, on: state)
        }
        Self.advance(&published, to: state, at: last)
        replayed = (state, span.upperBound)
      }
    }
    while let (view, moved, chunk) = published.popLast() {  // moved out, not copied
      var group = moved
      if !chunk.isEmpty {
        var gone: [UInt64] = []
        for (id, subscriber) in group.subscribers where !subscriber.updatePublished(chunk, newest: group.current) {
          gone.append(id)
        }
        for id in gone { group.subscribers[id] = nil }
      }
      if !group.subscribers.isEmpty { groups[view] = group }
    }
  }

  /// Moves every view's document to `state`, the state after `last`, and appends its update to the view's chunk.
  private static func advance(
    _ published: inout [(view: DocumentView, group: SubscriptionGroup, chunk: [UInt8])], to state: SceneState,
    at last: LogEntry
  ) {
    for index in published.indices {
      guard let update = published[index].group.advance(to: state, at: last) else { continue }
      if published[index].chunk.isEmpty { published[index].chunk = update } else { published[index].chunk += update }
    }
  }
}

extension SubscriptionGroup {
  /// Moves the view's document to `state`, the state after `last`, and returns
  /// the framed update from the current version to `last`'s, with `last`'s
  /// `animated` and events (a span of several versions carries none: `UpdateSpans`).
  mutating func advance(to state: SceneState, at last: LogEntry) -> [UInt8]? {
    guard let encoder = subscribers.first?.value else { return nil }
    let patch = live.update(to: state)
    let document = live.json
    let update = encoder.encode(
      .update(
        fromVersion: current.version, toVersion: last.version, patch: patch, animated: last.animated,
        events: last.events, coalesced: false))
    current = VersionedDocument(version: last.version, document: document)
    snapshot = nil
    return update
  }
}
