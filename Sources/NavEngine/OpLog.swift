import NavModel

/// One committed version, as conflict detection and resumption need it.
struct LogEntry: Sendable {
  var version: UInt64
  var client: String
  var mutationId: String?
  var ops: [Op]
  var accesses: FieldAccesses
  /// The state after this version (shares storage with its neighbours).
  var state: SceneState
  var events: [SceneEvent]
  /// Whether front ends should animate this version (SEMANTICS R14).
  var animated: Bool
}

/// The last `capacity` versions of a scene, oldest first, plus the state just
/// before the oldest, so any version from `floorVersion` on can be rebuilt.
struct OpLog: Sendable {
  let capacity: Int
  private(set) var entries: [LogEntry] = []
  /// The version whose state is `floorState` (the one before the oldest entry).
  private(set) var floorVersion: UInt64
  private(set) var floorState: SceneState

  init(capacity: Int, version: UInt64, state: SceneState) {
    self.capacity = max(1, capacity)
    self.floorVersion = version
    self.floorState = state
  }

  mutating func append(_ entry: LogEntry) {
    entries.append(entry)
    if entries.count > capacity {
      let dropped = entries.removeFirst()
      floorVersion = dropped.version
      floorState = dropped.state
    }
  }

  /// Drops the newest entries down to `version` (a failed group commit).
  mutating func truncate(after version: UInt64) {
    while let last = entries.last, last.version > version { entries.removeLast() }
  }

  /// Whether `version` can still be rebuilt.
  func holds(_ version: UInt64) -> Bool {
    version >= floorVersion && version <= (entries.last?.version ?? floorVersion)
  }

  func state(at version: UInt64) -> SceneState? {
    if version == floorVersion { return floorState }
    guard holds(version) else { return nil }
    return entries[Int(version - floorVersion - 1)].state
  }

  /// Entries with a version above `version`, oldest first (`version` must be held).
  func entries(after version: UInt64) -> ArraySlice<LogEntry> {
    entries[Int(version - floorVersion)...]
  }
}
