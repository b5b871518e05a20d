import NavModel

/// The authority for one scene: its state, version, op log and subscribers.
///
/// Mutations are queued and committed in groups: everything that arrived
/// while the previous group was being stored is applied in order, stored in
/// one `SceneStore.commit`, published to subscribers, and only then
/// acknowledged. No state is read across an `await` except through `pending`,
/// so actor reentrancy cannot interleave two commits.
public actor SceneEngine {
  public let name: String
  /// Names this history of the scene's versions. A navd that starts without the
  /// scene's history (a restart with volatile state) starts a new epoch, so a
  /// client's `sinceVersion` or `baseVersion` from another history is never
  /// judged against this one (PROTOCOL.md, "Epochs").
  public nonisolated let epoch: String
  let configuration: EngineConfiguration
  let store: any SceneStore
  let now: @Sendable () -> Double

  public internal(set) var state: SceneState
  public internal(set) var version: UInt64
  var log: OpLog
  var memory: MutationMemory
  var groups: [DocumentView: SubscriptionGroup] = [:]
  var actionWatchers: [UInt64: Subscriber] = [:]

  typealias Waiter = CheckedContinuation<Result<MutationOutcome, NavError>, Never>
  private var pending: [(MutationRequest, Waiter)] = []
  private var draining = false

  public init(
    name: String, state: SceneState = .empty, version: UInt64 = 0, epoch: String = SceneEngine.newEpoch(),
    configuration: EngineConfiguration, store: any SceneStore, now: @escaping @Sendable () -> Double
  ) {
    self.name = name
    self.epoch = epoch
    self.state = state
    self.version = version
    self.configuration = configuration
    self.store = store
    self.now = now
    self.log = OpLog(
      capacity: configuration.opLogCapacity, limits: configuration.limits, version: version, state: state)
    self.memory = MutationMemory(capacity: configuration.rememberedMutationIds)
  }

  /// The current state and its version, read atomically.
  public func snapshot() -> (state: SceneState, version: UInt64) { (state, version) }

  /// A new random epoch: 16 hex digits.
  public static func newEpoch() -> String {
    let value = UInt64.random(in: 0...UInt64.max)
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Commits a mutation; returns once it is stored and queued to every subscriber.
  ///
  /// When the scene is idle the caller commits its own mutation at once (no
  /// extra task hop); mutations arriving meanwhile wait and are committed
  /// together as the next group.
  public func mutate(_ request: MutationRequest) async -> Result<MutationOutcome, NavError> {
    if draining {
      return await withCheckedContinuation { (waiter: Waiter) in pending.append((request, waiter)) }
    }
    draining = true
    let result = await commitGroup([request])[0]
    if pending.isEmpty {
      draining = false
    } else {
      Task { await self.drain() }
    }
    return result
  }

  private func drain() async {
    while !pending.isEmpty {
      let group = pending
      pending = []
      let results = await commitGroup(group.map(\.0))
      for ((_, waiter), result) in zip(group, results) { waiter.resume(returning: result) }
    }
    draining = false
  }

  /// Applies a group in order, stores it in one commit, publishes it; on a
  /// store failure rolls the whole group back.
  private func commitGroup(_ group: [MutationRequest]) async -> [Result<MutationOutcome, NavError>] {
    let before = (state: state, version: version)
    var results: [Result<MutationOutcome, NavError>] = []
    var records: [CommitRecord] = []
    var committed: [(entry: LogEntry, state: SceneState)] = []
    for request in group {
      let result = apply(request)
      results.append(result)
      if case .success(let outcome) = result, !outcome.replayed, let entry = log.last, entry.version == outcome.version
      {
        committed.append((entry, state))
        records.append(
          CommitRecord(
            scene: name, epoch: epoch, version: entry.version, client: entry.client, mutationId: entry.mutationId,
            opsDigest: Self.digest(entry.ops), ops: entry.ops, outcome: outcome, snapshot: state,
            forgetMutationIdsThrough: 0))
      }
    }
    if !records.isEmpty {
      do {
        try await store.commit(records)
      } catch {
        rollBack(to: before, committed: committed)
        let failure = NavError(
          .storageFailed, "the mutation could not be stored: \(error.message); nothing was applied")
        for (i, result) in results.enumerated() {
          if case .success(let outcome) = result, !outcome.replayed { results[i] = .failure(failure) }
        }
        committed = []
      }
    }
    for (entry, state) in committed { publish(entry, state: state) }
    return results
  }

  private func rollBack(
    to before: (state: SceneState, version: UInt64), committed: [(entry: LogEntry, state: SceneState)]
  ) {
    state = before.state
    version = before.version
    log.truncate(after: before.version, state: before.state)
    for (entry, _) in committed {
      if let id = entry.mutationId { memory.forget(MutationMemory.Key(client: entry.client, mutationId: id)) }
    }
  }
}

extension SceneEngine {
  /// Subscribers and action watchers, for server statistics.
  public var subscriberTotal: Int { subscriberCount + watcherCount }

  /// The version and subscriber count, for `ListScenes`.
  public var summary: (version: UInt64, subscribers: Int) { (version, subscriberTotal) }
}
