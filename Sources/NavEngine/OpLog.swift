import NavModel

/// One committed version, as conflict detection and resumption need it.
struct LogEntry: Sendable {
  var version: UInt64
  var client: String
  var mutationId: String?
  var ops: [Op]
  var accesses: FieldAccesses
  /// The navigation item ids on the stack after this version (the pop rule, CONFLICTS.md S2).
  var stack: [String]
  var events: [SceneEvent]
  /// Whether front ends should animate this version (SEMANTICS R14).
  var animated: Bool
}

/// The last `capacity` versions of a scene, oldest first, and the state just
/// before the oldest (the *floor*), so any version from `floorVersion` on can
/// be rebuilt by replaying ops.
///
/// Entries keep ops, not states: a state per version would copy every array a
/// version changes (a scene's 512 bar button items, for one title), tens of
/// MiB per scene. Replay is exact because applying ops is a pure function.
/// A ring buffer: appending to a full log folds the oldest entry into the floor.
struct OpLog: Sendable {
  let capacity: Int
  let limits: ModelLimits
  private var ring: [LogEntry] = []
  /// Index in `ring` of the oldest entry.
  private var head = 0
  /// The version whose state is `floorState` (the one before the oldest entry).
  private(set) var floorVersion: UInt64
  private(set) var floorState: SceneState

  init(capacity: Int, limits: ModelLimits, version: UInt64, state: SceneState) {
    self.capacity = max(1, capacity)
    self.limits = limits
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
    floorState = replay(dropped, on: floorState)
    floorVersion = dropped.version
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

  /// The state at `version`, rebuilt from the floor (nil when not held).
  func state(at version: UInt64) -> SceneState? {
    guard holds(version) else { return nil }
    var state = floorState
    for offset in 0..<Int(version - floorVersion) { state = replay(entry(offset), on: state) }
    return state
  }

  /// The stack's ids at `version` (nil when not held).
  func stack(at version: UInt64) -> [String]? {
    guard holds(version) else { return nil }
    if version == floorVersion { return floorState.navigationBar.items.map(\.id) }
    return entry(Int(version - floorVersion - 1)).stack
  }

  /// Entries with a version above `version`, oldest first (`version` must be held).
  func entries(after version: UInt64) -> [LogEntry] {
    (Int(version - floorVersion)..<ring.count).map(entry)
  }

  /// The state after `entry`, from the state before it.
  func replay(_ entry: LogEntry, on state: SceneState) -> SceneState {
    do {
      return try state.applying(entry.ops, limits: limits).state
    } catch {
      preconditionFailure(
        "op log: replaying version \(entry.version) failed (\(error)); applying ops is pure, so it cannot")
    }
  }
}
