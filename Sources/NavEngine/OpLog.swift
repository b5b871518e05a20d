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
  /// The size of the ops' wire form: what this entry counts toward `opLogBytes`.
  var opsBytes: Int
}

extension LogEntry {
  /// The entry for `ops` committed at `version`, from what applying them gave.
  ///
  /// `previousStack` is the stack's ids at `version - 1`: when no op changes the stack
  /// (`Op.changesStack`), the entry shares that array rather than building its own, so a
  /// title change allocates no ids (nil: built from `applied`).
  init(
    version: UInt64, client: String, mutationId: String?, ops: [Op], opsBytes: Int, applied: AppliedMutation,
    previousStack: [String]? = nil
  ) {
    var accesses: FieldAccesses
    if ops.count == 1 {
      accesses = ops[0].fieldAccesses
    } else {
      accesses = FieldAccesses()
      for op in ops {
        let a = op.fieldAccesses
        accesses.writes += a.writes
        accesses.edits += a.edits
        accesses.creations += a.creations
      }
    }
    let stack =
      if let previousStack, !ops.contains(where: \.changesStack) {
        previousStack
      } else {
        applied.state.navigationBar.items.map(\.id)
      }
    self.init(
      version: version, client: client, mutationId: mutationId, ops: ops, accesses: accesses, stack: stack,
      events: applied.events, animated: applied.animated, opsBytes: opsBytes)
  }
}

extension Op {
  /// Whether the op can change which navigation items are on the stack, or their order:
  /// the ops that push, pop or replace items. Every other op leaves the stack's ids as they were.
  var changesStack: Bool {
    switch self {
    case .push, .pop, .popTo, .setStack: true
    case .updateNavigationItem, .setBarButtonItems, .setBarButtonItem, .insertBarButtonItem, .removeBarButtonItem,
      .moveBarButtonItem, .defineBarButtonItem, .updateBarButtonItem, .deleteBarButtonItem, .setToolbarItems,
      .insertToolbarItem, .removeToolbarItem, .moveToolbarItem, .setBarHidden, .updateAppearance, .setSceneTint,
      .setDefaultItemTint:
      false
    }
  }
}

/// The last versions of a scene, oldest first, and the state just before the
/// oldest (the *floor*), so any version from `floorVersion` on can be rebuilt
/// by replaying ops.
///
/// Bounded twice: at most `capacity` entries and at most `byteLimit` bytes of
/// ops; appending past either folds the oldest entries into the floor, but
/// the newest entry is always kept, however large.
///
/// Entries keep ops, not states: a state per version would copy every array a
/// version changes (a scene's 512 bar button items, for one title), tens of
/// MiB per scene. Replay is exact because applying ops is a pure function.
struct OpLog: Sendable {
  let capacity: Int
  let byteLimit: Int
  /// A queue: slots before `head` were folded into the floor (nil, so their ops are freed).
  private var slots: [LogEntry?] = []
  private var head = 0
  /// Bytes of ops held (`opsBytes` of every entry).
  private(set) var bytes = 0
  /// The version whose state is `floorState` (the one before the oldest entry).
  private(set) var floorVersion: UInt64
  private(set) var floorState: SceneState

  init(capacity: Int, byteLimit: Int, version: UInt64, state: SceneState) {
    self.capacity = max(1, capacity)
    self.byteLimit = byteLimit
    self.floorVersion = version
    self.floorState = state
  }

  var count: Int { slots.count - head }

  /// The newest entry.
  var last: LogEntry? { count == 0 ? nil : entry(count - 1) }

  /// The newest version held: the last entry's, else the floor's.
  var newestVersion: UInt64 { last?.version ?? floorVersion }

  /// The entry `offset` places after the oldest.
  private func entry(_ offset: Int) -> LogEntry {
    guard let entry = slots[head + offset] else {
      preconditionFailure("op log: slot \(head + offset) is empty although the log holds \(head)..<\(slots.count)")
    }
    return entry
  }

  mutating func append(_ entry: LogEntry) {
    slots.append(entry)
    bytes += entry.opsBytes
    while count > 1 && (count > capacity || bytes > byteLimit) { foldOldest() }
  }

  /// Replays the oldest entry into the floor and frees it.
  private mutating func foldOldest() {
    // Taken out of its slot, not copied and then cleared: no retain and release of its arrays.
    guard let dropped = slots[head].take() else {
      preconditionFailure("op log: slot \(head) is empty although the log holds \(head)..<\(slots.count)")
    }
    head += 1
    bytes -= dropped.opsBytes
    Self.replay(dropped, into: &floorState)
    floorVersion = dropped.version
    if head >= 64 && head * 2 >= slots.count {
      slots.removeFirst(head)
      head = 0
    }
  }

  /// Whether `version` can still be rebuilt.
  func holds(_ version: UInt64) -> Bool {
    version >= floorVersion && version <= newestVersion
  }

  /// The state at `version`, rebuilt from the floor (nil when not held).
  func state(at version: UInt64) -> SceneState? {
    guard holds(version) else { return nil }
    var state = floorState
    for offset in 0..<Int(version - floorVersion) { Self.replay(entry(offset), into: &state) }
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
    var result: [LogEntry] = []
    forEachEntry(after: version) { result.append($0) }
    return result
  }

  /// Calls `body` with every entry above `version`, oldest first, without copying them into an array.
  func forEachEntry(after version: UInt64, _ body: (LogEntry) -> Void) {
    let start = version < floorVersion ? 0 : Int(min(version - floorVersion, UInt64(count)))
    for offset in start..<count { body(entry(offset)) }
  }

  /// The state after `entry`, from the state before it.
  func replay(_ entry: LogEntry, on state: SceneState) -> SceneState {
    var state = state
    Self.replay(entry, into: &state)
    return state
  }

  /// Advances `state` (the state before `entry`) past `entry`, in place: the arrays the
  /// ops change are copied only when another state shares them (`SceneState.replay`).
  static func replay(_ entry: LogEntry, into state: inout SceneState) {
    do {
      try state.replay(entry.ops)
    } catch {
      preconditionFailure(
        "op log: replaying version \(entry.version) failed (\(error)); applying ops is pure, so it cannot")
    }
  }
}
