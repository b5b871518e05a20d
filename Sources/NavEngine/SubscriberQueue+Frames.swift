import NavModel

/// The parameters of every frame a `Subscribe` or `WatchActions` stream
/// sends (Protocol/PROTOCOL.md §3), encoded once and shared as bytes.
enum StreamFrames {
  /// `{"kind": "update", …}`: one version, or (`coalesced`) several skipped at once.
  static func update(
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

  /// The one update that replaces everything a subscriber missed between two documents.
  static func coalesced(from: VersionedDocument, to: VersionedDocument) -> [UInt8] {
    update(
      fromVersion: from.version, toVersion: to.version, patch: PatchBuilder.diff(from.document, to.document),
      animated: false, events: .array([]), coalesced: true)
  }

  /// `{"kind": "snapshot", …}`: a subscriber's first frame.
  static func snapshot(version: UInt64, epoch: String, view: DocumentView, document: JSONValue) -> [UInt8] {
    JSONWriter.bytes([
      "kind": "snapshot", "version": .number(Double(version)), "epoch": .string(epoch),
      "view": .string(view.description), "document": document,
    ])
  }

  /// `{"kind": "events", …}`: events at the current version (activations).
  static func events(version: UInt64, events: [SceneEvent]) -> [UInt8] {
    JSONWriter.bytes(["kind": "events", "version": .number(Double(version)), "events": .array(events.map(\.json))])
  }

  /// `{"kind": "watching", …}`: a watcher's first frame, sent once its watch is registered.
  static func watching(scene: String, version: UInt64) -> [UInt8] {
    JSONWriter.bytes(["kind": "watching", "scene": .string(scene), "version": .number(Double(version))])
  }

  /// `{"kind": "activation", …}`: one activation, for watchers.
  static func activation(scene: String, item: String, action: String?, tag: Int, version: UInt64) -> [UInt8] {
    JSONWriter.bytes([
      "kind": "activation", "scene": .string(scene), "item": .string(item),
      "action": action.map { .string($0) } ?? .null, "tag": .number(Double(tag)), "version": .number(Double(version)),
    ])
  }

  /// `{"kind": "dropped", …}`: `count` activations a watcher did not read in time were lost.
  static func dropped(scene: String, count: Int, version: UInt64) -> [UInt8] {
    JSONWriter.bytes([
      "kind": "dropped", "scene": .string(scene), "dropped": .number(Double(count)),
      "version": .number(Double(version)),
    ])
  }
}
