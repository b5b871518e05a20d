import NavModel

/// Fan-out: a committed group becomes one pending span per view per span of its
/// versions (`UpdateSpans`: usually the whole group). Nothing is resolved here: a
/// view's spans are resolved, diffed and encoded once, when the first of its
/// subscribers pulls, and the same bytes are queued to every subscriber of that
/// view (`ViewChannel`). No subscriber costs a diff here: one that is behind
/// coalesces when it next pulls (`SubscriberQueue`).
extension SceneCore {
  /// Publishes a group `install` just made the scene's state: `state` is the state after
  /// its last version and `installed.state` the one before its first.
  ///
  /// A plan holds no state per version, so the state at the end of a span
  /// that is not the last is rebuilt by replaying the entries' ops (none when
  /// the group is one span), once for every view.
  mutating func publish(installed plan: GroupPlan) {
    guard !groups.isEmpty else { return }
    let limit = configuration.subscriberQueueBytes
    // A group of one version is one span (the usual case), published without an array
    // of spans that says so.
    if plan.versions.count == 1 {
      let entry = plan.versions[0].entry
      publish(PendingSpan(state: state, last: entry, change: LayoutChange(ops: entry.ops, in: state)), limit: limit)
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
        publish(PendingSpan(state: spanState, last: last, change: change), limit: limit)
      }
    }
    var emptied: [DocumentView] = []
    for (view, channel) in groups where channel.withGroup({ $0.subscribers.isEmpty }) { emptied.append(view) }
    for view in emptied { groups.removeValue(forKey: view)?.forgotten() }
  }

  /// Adds `span` to every view's pending spans.
  private func publish(_ span: PendingSpan, limit: Int) {
    for channel in groups.values { channel.withGroup { $0.published(span, limit: limit) } }
  }

  /// Brings every view up to date (`ViewChannel.bringUpToDate`): before something that
  /// needs each view's current document, such as an event queued after its updates.
  func bringViewsUpToDate() {
    for channel in groups.values { channel.bringUpToDate() }
  }
}

extension SubscriptionGroup {
  /// Moves the view's document to `state`, the state after `last` (`change` says
  /// what may differ, `shared` what the other views of `state` resolved), and returns the
  /// framed update from the current version to `last`'s, with `last`'s `animated` and
  /// events (a span of several versions carries none: `UpdateSpans`; a `coalesced` one
  /// neither). When another view of the span's placement encoded the same update from the
  /// same version (`SharedUpdates`), its bytes are taken: no patch is written.
  mutating func advance(
    to state: SceneState, at last: LogEntry, change: LayoutChange, shared: SharedResolution,
    updates: SharedUpdates, coalesced: Bool
  ) -> [UInt8]? {
    let from = current.version
    snapshot = nil
    let patch: [PatchOperation]
    var key: SharedUpdates.Key?
    if live == nil {
      // Evicted: built again from the state, and diffed whole against the current document.
      let rebuilt = LiveDocument(view, of: state)
      let next = rebuilt.versioned(last.version)
      patch = PatchBuilder.diff(current.document, next.document)
      live = rebuilt
      current = next
    } else {
      // `current` holds the live document's layout as it was: what the patch is written from.
      let previous = current
      let step = live!.step(to: state, change: change, shared: shared)
      current = live!.versioned(last.version)
      key = step.sharing.map { SharedUpdates.Key(from: from, coalesced: coalesced, sharing: $0) }
      if let key, let update = updates.update(for: key) { return subscribers.isEmpty ? nil : update }
      patch = step.patch(from: previous.layout, to: live!)
    }
    guard let encoder = subscribers.first else { return nil }
    let update = encoder.encode(
      .update(
        fromVersion: from, toVersion: last.version, patch: patch, animated: coalesced ? false : last.animated,
        events: coalesced ? [] : last.events, coalesced: coalesced))
    if let key { updates.keep(update, for: key) }
    return update
  }

  /// Queues `chunk` (this view's updates from `start` up to `current`) to every
  /// subscriber, and forgets those whose stream closed; `start` becomes `lastUpdateFrom`.
  /// `coalesced`: one of the updates coalesced versions nobody pulled in time.
  ///
  /// The subscribers are reached by index in a local copy of the list, which keeps
  /// them alive: a `for subscriber in` loop would retain and release each one.
  mutating func queue(_ chunk: [UInt8], from start: VersionedDocument, coalesced: Bool) {
    let newest = current
    var gone: [UInt64] = []
    let members = subscribers.members
    let previousFrom = lastUpdateFrom
    for index in members.indices
    where !members[index].updatePublished(
      chunk, from: start, to: newest, previousFrom: previousFrom, coalesced: coalesced)
    {
      gone.append(members[index].id)
    }
    for id in gone { subscribers.remove(id) }
    lastUpdateFrom = start
  }
}
