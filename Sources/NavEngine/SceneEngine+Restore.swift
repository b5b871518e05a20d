import NavModel

/// What a scene's engine holds about its past: state, version, op log,
/// remembered mutation ids and the snapshot schedule.
struct SceneHistory: Sendable {
  var state: SceneState
  var version: UInt64
  var log: OpLog
  var memory: MutationMemory
  var snapshots: SnapshotSchedule

  /// A history that starts at `version` with `state`. `snapshotStored`: the store already holds
  /// `state` as the snapshot at `version` (an import), so the schedule counts from it; else
  /// nothing is stored and the first committed version carries a snapshot.
  init(state: SceneState, version: UInt64, snapshotStored: Bool = false, configuration: EngineConfiguration) {
    self.state = state
    self.version = version
    self.log = OpLog(
      capacity: configuration.opLogCapacity, byteLimit: configuration.opLogBytes, version: version, state: state)
    self.memory = MutationMemory(
      capacity: configuration.rememberedMutationIds, byteLimit: configuration.rememberedMutationIdBytes)
    self.snapshots = SnapshotSchedule(lastVersion: snapshotStored ? version : nil)
  }

  /// The history a store kept: the snapshot with the stored log replayed on
  /// it (the op log keeps the newest entries its bounds allow, with their
  /// stacks, events and accesses recomputed), and the stored mutation ids.
  ///
  /// Throws `StoreError.corrupt` when the log has a gap or a version does not
  /// apply to the state before it (for instance under lower limits than it
  /// was written with): navd must not serve a history it cannot rebuild.
  init(restoring stored: StoredScene, configuration: EngineConfiguration) throws(StoreError) {
    let encoded = stored.log.map { Op.encoded($0.ops) }
    var expected = stored.snapshotVersion &+ 1
    for entry in stored.log {
      guard entry.version == expected else {
        throw StoreError(
          .corrupt,
          "scene \"\(stored.name)\": the stored log has version \(entry.version) where \(expected) should follow; the history cannot be rebuilt (move the state database aside to start without it)"
        )
      }
      expected &+= 1
    }
    // The newest entries that fit the op log's bounds; the older ones only move the floor.
    var kept = 0
    var keptBytes = 0
    for bytes in encoded.reversed() {
      if kept >= 1 && (kept + 1 > configuration.opLogCapacity || keptBytes + bytes.count > configuration.opLogBytes) {
        break
      }
      kept += 1
      keptBytes += bytes.count
    }
    let firstKept = stored.log.count - kept
    self.init(state: stored.snapshot, version: stored.snapshotVersion, configuration: configuration)
    for (index, entry) in stored.log.enumerated() {
      let applied: AppliedMutation
      do {
        applied = try state.applying(entry.ops, limits: configuration.limits)
      } catch {
        throw StoreError(
          .corrupt,
          "scene \"\(stored.name)\": stored version \(entry.version) does not apply to the version before it (\(error.message)); the history cannot be rebuilt (move the state database aside to start without it)"
        )
      }
      if index == firstKept {
        log = OpLog(
          capacity: configuration.opLogCapacity, byteLimit: configuration.opLogBytes, version: version, state: state)
      }
      state = applied.state
      version = entry.version
      if index >= firstKept {
        log.append(
          LogEntry(
            version: entry.version, client: entry.client, mutationId: entry.mutationId, ops: entry.ops,
            opsBytes: encoded[index].count, applied: applied))
      }
    }
    snapshots = SnapshotSchedule(lastVersion: stored.snapshotVersion, bytesSince: encoded.reduce(0) { $0 + $1.count })
    for id in stored.mutationIds.sorted(by: { $0.outcome.version < $1.outcome.version }) {
      let key = MutationMemory.Key(client: id.client, mutationId: id.mutationId)
      guard memory.lookup(key) == nil else { continue }
      var outcome = id.outcome
      outcome.replayed = false
      memory.remember(
        key,
        MutationMemory.Entry(opsDigest: id.opsDigest, outcome: outcome, bytes: MutationMemory.footprint(key, outcome)))
    }
  }
}

extension SceneEngine {
  /// The scene as `store` kept it: its epoch, state and version continue,
  /// its op log reaches back to the stored snapshot, and its remembered
  /// mutation ids answer retries as before the restart (CONFLICTS.md I1–I4).
  public init(
    restoring stored: StoredScene, configuration: EngineConfiguration, store: any SceneStore,
    executor: any SceneExecutor = QueueSceneExecutor(), now: @escaping @Sendable () -> Double
  ) throws(StoreError) {
    let history = try SceneHistory(restoring: stored, configuration: configuration)
    self.init(
      name: stored.name, epoch: stored.epoch, history: history, configuration: configuration, store: store,
      executor: executor, now: now)
  }
}
