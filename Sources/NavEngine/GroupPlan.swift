import NavModel

/// One commit group worked out as values before anything is stored: the
/// result of every request, the versions it commits (log entries and
/// outcomes) and the mutation ids it remembers.
///
/// It holds one scene state, the one after its last version, not one per
/// version: on a large scene each state costs a copy of every array a version
/// changed (~150 KiB per title change on a 2 MB scene), and a pipelining
/// writer makes groups of up to `maxCallsInFlight` versions. Publishing
/// rebuilds the states in between by replaying the entries' ops (`OpLog.replay`).
///
/// Planning never touches the scene's installed state; requests later in the
/// group see earlier ones through this plan (the installed op log overlaid
/// with `versions`, the installed mutation memory overlaid with
/// `remembered`), so the installed log is read, never copied.
struct GroupPlan: Sendable {
  /// A version the group commits.
  struct Version: Sendable {
    var entry: LogEntry
    var outcome: MutationOutcome
    var opsDigest: UInt64
    /// The ops' wire form, as the store writes it.
    var encodedOps: [UInt8]
    /// The state after `entry` when this version's record carries a snapshot
    /// (`SnapshotSchedule`: every 256 versions or 4 MiB of ops), else nil.
    var snapshot: SceneState?
  }

  /// The installed version the plan starts from.
  let baseVersion: UInt64
  /// The state and version after every planned version (once installed, `state` is the
  /// scene's state before the group: `SceneEngine.install` swaps the two).
  var state: SceneState
  var version: UInt64
  var versions: [Version] = []
  /// Bytes of ops the versions' records store (`Version.encodedOps`), which
  /// `EngineConfiguration.groupRecordBytes` bounds.
  var recordBytes = 0
  /// Ids this group remembers, in version order.
  var remembered: [(key: MutationMemory.Key, entry: MutationMemory.Entry)] = []
  private var rememberedIndex: [MutationMemory.Key: Int] = [:]
  var snapshots: SnapshotSchedule
  var results: [Result<MutationOutcome, NavError>] = []
  /// Per result: whether it was judged with versions of this group in view.
  /// When the store fails, those versions never existed, so such a result
  /// becomes StorageFailed too: no one is told of a version that is later reused.
  var dependsOnGroup: [Bool] = []

  init(state: SceneState, version: UInt64, snapshots: SnapshotSchedule) {
    self.baseVersion = version
    self.state = state
    self.version = version
    self.snapshots = snapshots
  }

  /// The stack's ids after the last planned version (nil before the first), which the
  /// next version's entry shares when its ops leave the stack alone.
  var stack: [String]? { versions.last?.entry.stack }

  /// Room for `count` requests, so planning a pipelined burst does not regrow the arrays.
  mutating func reserveCapacity(_ count: Int) {
    versions.reserveCapacity(count)
    results.reserveCapacity(count)
    dependsOnGroup.reserveCapacity(count)
  }

  /// Whether earlier requests of this group committed versions.
  var hasVersions: Bool { !versions.isEmpty }

  /// An id remembered earlier in this group.
  func rememberedInGroup(_ key: MutationMemory.Key) -> MutationMemory.Entry? {
    rememberedIndex[key].map { remembered[$0].entry }
  }

  mutating func remember(_ key: MutationMemory.Key, _ entry: MutationMemory.Entry) {
    rememberedIndex[key] = remembered.count
    remembered.append((key, entry))
  }

  /// The stack's ids at `version`, from the plan or the installed log (nil when neither holds it).
  func stack(at version: UInt64, log: OpLog) -> [String]? {
    guard version > baseVersion else { return log.stack(at: version) }
    guard version <= self.version else { return nil }
    return versions[Int(version - baseVersion - 1)].entry.stack
  }

  /// Every entry above `version`, installed then planned, oldest first.
  func forEachEntry(after version: UInt64, log: OpLog, _ body: (LogEntry) -> Void) {
    if version < baseVersion { log.forEachEntry(after: version, body) }
    let start = version > baseVersion ? Int(min(version - baseVersion, UInt64(versions.count))) : 0
    for planned in versions[start...] { body(planned.entry) }
  }
}
