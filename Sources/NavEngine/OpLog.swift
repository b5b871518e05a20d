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
///
/// A ring buffer: appending to a full log overwrites the oldest entry in place
/// (an array's `removeFirst` moved every entry on every commit).
struct OpLog: Sendable {
  let capacity: Int
  private var ring: [LogEntry] = []
  /// Index in `ring` of the oldest entry.
  private var head = 0
  /// The version whose state is `floorState` (the one before the oldest entry).
  private(set) var floorVersion: UInt64
  private(set) var floorState: SceneState

  init(capacity: Int, version: UInt64, state: SceneState) {
    self.capacity = max(1, capacity)
    self.floorVersion = version
    self.floorState = state
  }

  var count: Int { ring.count }

  /// The newest entry.
  var last: LogEntry? { ring.isEmpty ? nil : ring[(head + ring.count - 1) % ring.count] }

  /// The entry `offset` places after the oldest.
  private func entry(_ offset: Int) -> LogEntry { ring[(head + offset) % ring.count] }

  mutating func append(_ entry: LogEntry) {
    if ring.count < capacity {
      ring.append(entry)
      return
    }
    let dropped = ring[head]
    floorVersion = dropped.version
    floorState = dropped.state
    ring[head] = entry
    head = (head + 1) % ring.count
  }

  /// Drops the entries newer than `version`, whose state was `state` (a failed
  /// group commit). When the group had already pushed `version` out of the log,
  /// the log restarts from it.
  mutating func truncate(after version: UInt64, state: SceneState) {
    guard let newest = last?.version, newest > version else { return }
    if floorVersion >= version {
      ring = []
      head = 0
      floorVersion = version
      floorState = state
      return
    }
    let keep = ring.count - Int(newest - version)
    ring = (0..<keep).map(entry)
    head = 0
  }

  /// Whether `version` can still be rebuilt.
  func holds(_ version: UInt64) -> Bool {
    version >= floorVersion && version <= (last?.version ?? floorVersion)
  }

  func state(at version: UInt64) -> SceneState? {
    if version == floorVersion { return floorState }
    guard holds(version) else { return nil }
    return entry(Int(version - floorVersion - 1)).state
  }

  /// Entries with a version above `version`, oldest first (`version` must be held).
  func entries(after version: UInt64) -> [LogEntry] {
    (Int(version - floorVersion)..<ring.count).map(entry)
  }
}
