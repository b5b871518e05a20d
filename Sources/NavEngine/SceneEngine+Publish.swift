import NavModel

/// Fan-out: every committed version becomes one update per view, encoded once
/// and queued to every subscriber of that view.
extension SceneEngine {
  /// `state` is the state after `entry`.
  func publish(_ entry: LogEntry, state: SceneState) {
    let moment = now()
    let events = JSONValue.array(entry.events.map(\.json))
    let animated = entry.animated
    for (view, var group) in groups {
      let document = view.document(of: state)
      let patch = PatchBuilder.diff(group.document, document)
      let parameters = Self.updateBytes(
        fromVersion: entry.version - 1, toVersion: entry.version, patch: patch, animated: animated, events: events)
      let chunk = Subscriber.Chunk(parameters: parameters, toVersion: entry.version, document: document)
      for (id, subscriber) in group.subscribers {
        let result = subscriber.enqueue(chunk, now: moment) { fromVersion, fromDocument in
          Subscriber.Chunk(
            parameters: Self.updateBytes(
              fromVersion: fromVersion, toVersion: entry.version, patch: PatchBuilder.diff(fromDocument, document),
              animated: false, events: .array([]), coalesced: true),
            toVersion: entry.version, document: document)
        }
        if case .closed = result {
          group.subscribers[id] = nil
        } else if case .stalled = result {
          group.subscribers[id] = nil
        }
      }
      group.document = document
      groups[view] = group.subscribers.isEmpty ? nil : group
    }
  }

  /// The parameters of one update reply, as bytes.
  static func updateBytes(
    fromVersion: UInt64, toVersion: UInt64, patch: [PatchOperation], animated: Bool, events: JSONValue,
    coalesced: Bool = false
  ) -> [UInt8] {
    var members: [String: JSONValue] = [
      "kind": "update", "fromVersion": .number(Double(fromVersion)), "toVersion": .number(Double(toVersion)),
      "patch": JSONPatch.encode(patch), "animated": .bool(animated), "events": events,
    ]
    if coalesced { members["coalesced"] = true }
    return JSONWriter.bytes(.object(members))
  }

  static func snapshotBytes(version: UInt64, epoch: String, view: DocumentView, document: JSONValue) -> [UInt8] {
    JSONWriter.bytes([
      "kind": "snapshot", "version": .number(Double(version)), "epoch": .string(epoch),
      "view": .string(view.description), "document": document,
    ])
  }
}
