import NavModel

/// Fan-out: a committed group becomes one update per view per span of its
/// versions (`UpdateSpans`: usually the whole group), resolved, diffed and
/// encoded once, and the same bytes are queued to every subscriber of that
/// view. No subscriber costs a diff here: one that is behind coalesces when
/// it next pulls (`SubscriberQueue`).
extension SceneCore {
  /// Publishes a group `install` just made the scene's state: `state` is the state after
  /// its last version and `installed.state` the one before its first.
  ///
  /// A plan holds no state per version, so the state at the end of a span
  /// that is not the last is rebuilt by replaying the entries' ops (none when
  /// the group is one span). Each view's updates for the whole group are
  /// framed into one chunk, queued to each of its subscribers at once: one
  /// lock and one wake per subscriber per group, however many versions it
  /// holds, and the same bytes for all.
  ///
  /// The subscription groups change in place, through `groups.values` at
  /// positions taken once (nothing is added to or removed from `groups` until
  /// the end): taking each group out of the dictionary and putting it back
  /// would copy the whole group twice per publish, and dropping a closed subscriber
  /// never copies the others. What the publish keeps per view is one array of
  /// `ViewPublish`, not an array per field: two allocations fewer per publish.
  mutating func publish(installed plan: GroupPlan) {
    guard !groups.isEmpty else { return }
    var views = groups.values.indices.map { ViewPublish(position: $0, start: groups.values[$0].current) }
    // A group of one version is one span (the usual case), published without an array
    // of spans that says so.
    if plan.versions.count == 1 {
      let entry = plan.versions[0].entry
      advance(&views, to: state, at: entry, change: LayoutChange(ops: entry.ops, in: state))
    } else {
      var replayed: (state: SceneState, through: Int)?
      for span in UpdateSpans.of(plan.versions) {
        let last = plan.versions[span.upperBound - 1].entry
        let spanState: SceneState
        if span.upperBound == plan.versions.count {
          spanState = state
        } else {
          var replaying = replayed?.state ?? plan.state
          for planned in plan.versions[(replayed?.through ?? 0)..<span.upperBound] {
            replaying = log.replay(planned.entry, on: replaying)
          }
          spanState = replaying
          replayed = (spanState, span.upperBound)
        }
        // One change for every width: what the span's ops may have changed (`LayoutChange`).
        var change = LayoutChange()
        for planned in plan.versions[span] { change.formUnion(LayoutChange(ops: planned.entry.ops, in: spanState)) }
        advance(&views, to: spanState, at: last, change: change)
      }
    }
    var emptied: [DocumentView] = []
    for view in views {
      if !view.chunk.isEmpty { groups.values[view.position].queue(view.chunk, from: view.start) }
      if groups.values[view.position].subscribers.isEmpty { emptied.append(groups.keys[view.position]) }
    }
    for view in emptied { groups[view] = nil }
  }

  /// Moves the document of every view to `state`, the state after `last`, which
  /// differs from the views' current one at most in what `change` names, and appends
  /// its update to the view's chunk.
  private mutating func advance(
    _ views: inout [ViewPublish], to state: SceneState, at last: LogEntry, change: LayoutChange
  ) {
    for index in views.indices {
      guard let update = groups.values[views[index].position].advance(to: state, at: last, change: change)
      else { continue }
      if views[index].chunk.isEmpty { views[index].chunk = update } else { views[index].chunk += update }
    }
  }
}

/// One view's part of a publish: where its group is in `SceneCore.groups`, the
/// document it starts from, and its framed updates so far.
private struct ViewPublish {
  let position: Dictionary<DocumentView, SubscriptionGroup>.Index
  let start: VersionedDocument
  var chunk: [UInt8] = []
}

extension SubscriptionGroup {
  /// Moves the view's document to `state`, the state after `last` (`change` says
  /// what may differ), and returns the framed update from the current version to
  /// `last`'s, with `last`'s `animated` and events (a span of several versions
  /// carries none: `UpdateSpans`).
  mutating func advance(to state: SceneState, at last: LogEntry, change: LayoutChange) -> [UInt8]? {
    guard let encoder = subscribers.first else { return nil }
    let patch = live.update(to: state, change: change)
    let update = encoder.encode(
      .update(
        fromVersion: current.version, toVersion: last.version, patch: patch, animated: last.animated,
        events: last.events, coalesced: false))
    current = live.versioned(last.version)
    snapshot = nil
    return update
  }

  /// Queues `chunk` (this view's updates from `start` up to `current`) to every
  /// subscriber, and forgets those whose stream closed; `start` becomes `lastUpdateFrom`.
  ///
  /// The subscribers are reached by index in a local copy of the list, which keeps
  /// them alive: a `for subscriber in` loop would retain and release each one.
  mutating func queue(_ chunk: [UInt8], from start: VersionedDocument) {
    let newest = current
    var gone: [UInt64] = []
    let members = subscribers.members
    let previousFrom = lastUpdateFrom
    for index in members.indices
    where !members[index].updatePublished(chunk, from: start, to: newest, previousFrom: previousFrom) {
      gone.append(members[index].id)
    }
    for id in gone { subscribers.remove(id) }
    lastUpdateFrom = start
  }
}
