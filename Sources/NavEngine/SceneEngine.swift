import NavModel
import Synchronization

/// The authority for one scene: its state, version, op log and subscribers.
///
/// Mutations are queued and committed in groups: everything that arrived
/// while the previous group was being stored is planned in order, stored in
/// one `SceneStore.commit`, installed, published to subscribers, and only
/// then acknowledged. Only `draining` and `pending` are shared across the
/// store's `await`, so actor reentrancy cannot interleave two commits, and a
/// read during the `await` sees the state before the group.
public actor SceneEngine {
  /// The scene's name.
  public let name: String
  /// Names this history of the scene's versions. A navd that starts without the
  /// scene's history (a restart with volatile state) starts a new epoch, so a
  /// client's `sinceVersion` or `baseVersion` from another history is never
  /// judged against this one (PROTOCOL.md, "Epochs").
  public nonisolated let epoch: String
  let configuration: EngineConfiguration
  let store: any SceneStore
  let now: @Sendable () -> Double

  /// The current state (after the last committed version).
  public internal(set) var state: SceneState
  /// The last committed version (0: nothing committed yet).
  public internal(set) var version: UInt64
  var log: OpLog
  var memory: MutationMemory
  var snapshots: SnapshotSchedule
  var groups: [DocumentView: SubscriptionGroup] = [:]
  var actionWatchers: [UInt64: Subscriber] = [:]

  /// What a waiting mutation is resumed with: its result, or the lead of the next group.
  enum Turn: Sendable {
    case committed(Result<MutationOutcome, NavError>)
    case lead
  }
  typealias Waiter = CheckedContinuation<Turn, Never>
  /// What a submitted mutation is answered with (`submit`), called on the actor.
  public typealias Completion = @Sendable (Result<MutationOutcome, NavError>) -> Void
  /// How a queued mutation learns its result.
  enum Reply: Sendable {
    /// A `mutate` caller suspended in its own task, which may be handed the lead.
    case waiter(Waiter)
    /// A `submit` caller, which has no task to hand the lead to.
    case callback(Completion)
  }
  var pending: [(MutationRequest, Reply)] = []
  var draining = false
  /// Mutations submitted from any thread (`submit`), not yet moved to `pending`.
  let mailbox = Mutex(Mailbox())

  init(
    name: String, epoch: String, history: SceneHistory, configuration: EngineConfiguration, store: any SceneStore,
    now: @escaping @Sendable () -> Double
  ) {
    self.name = name
    self.epoch = epoch
    self.state = history.state
    self.version = history.version
    self.log = history.log
    self.memory = history.memory
    self.snapshots = history.snapshots
    self.configuration = configuration
    self.store = store
    self.now = now
  }

  /// A scene at `version` with `state` and nothing stored yet: its first
  /// committed version is stored with a snapshot.
  public init(
    name: String, state: SceneState = .empty, version: UInt64 = 0, epoch: String = SceneEngine.newEpoch(),
    configuration: EngineConfiguration, store: any SceneStore, now: @escaping @Sendable () -> Double
  ) {
    self.init(
      name: name, epoch: epoch, history: SceneHistory(state: state, version: version, configuration: configuration),
      configuration: configuration, store: store, now: now)
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
  /// When the scene is idle the caller leads the next group: it steps off the
  /// actor once (`letQueuedCallsIn`), so that the calls already queued behind
  /// it — the rest of a pipelined burst, dispatched in the same loop pass —
  /// reach the scene, find it draining and join; then it commits them all.
  /// Without the step, a store that commits without suspending (navd's SQLite
  /// store at `--durability normal`) would make every mutation its own group:
  /// one commit and one write per subscriber each. Mutations arriving while a
  /// group is stored, or left over by `groupCapacity`, wait; the leader then
  /// hands the lead to the oldest of them (`handOffLead`), so every commit runs
  /// in a caller's own task (on its executor: navd's event loop). Mutations
  /// submitted without a task (`submit`, what navd uses) are led by the one
  /// task that drains the mailbox, or join a `mutate` caller's group.
  public func mutate(_ request: MutationRequest) async -> Result<MutationOutcome, NavError> {
    if draining {
      switch await withCheckedContinuation({ (waiter: Waiter) in pending.append((request, .waiter(waiter))) }) {
      case .committed(let result): return result
      case .lead: break
      }
    } else {
      draining = true
      await Self.letQueuedCallsIn()
    }
    var result: Result<MutationOutcome, NavError>?
    await commitGroup(leading: request) { result = $0 }
    await handOffLead()
    guard let result else { preconditionFailure("scene \(name): a committed group did not answer its leader") }
    return result
  }

  /// Commits the next group: `first`, then as many waiting mutations as the group may hold;
  /// answers them in order, `first` through `answer`.
  private func commitGroup(
    leading first: MutationRequest, answer: (Result<MutationOutcome, NavError>) -> Void
  ) async {
    var group = planGroup(leading: first)
    switch commitAtOnce(&group.plan) {
    case .committed(let results): self.answer(group, results, leader: answer)
    case .mustAwait(let records): self.answer(group, await commit(group.plan, records), leader: answer)
    }
  }

  /// A group planned from its leader and the waiting requests that joined it.
  fileprivate struct LedGroup {
    var plan: GroupPlan
    var joined: [(MutationRequest, Reply)]
  }

  /// Plans `first` and as many waiting mutations as the group may hold.
  private func planGroup(leading first: MutationRequest) -> LedGroup {
    let joined = takePending(upTo: groupCapacity - 1)
    // Planned from `first` and the waiting requests where they are: no array of copies.
    var plan = GroupPlan(state: state, version: version, snapshots: snapshots)
    plan.reserveCapacity(joined.count + 1)
    self.plan(first, into: &plan)
    for index in joined.indices { self.plan(joined[index].0, into: &plan) }
    return LedGroup(plan: plan, joined: joined)
  }

  /// Answers a committed group in order: its leader through `leader`, then the requests that joined.
  private func answer(
    _ group: LedGroup, _ results: [Result<MutationOutcome, NavError>],
    leader: (Result<MutationOutcome, NavError>) -> Void
  ) {
    leader(results[0])
    for ((_, reply), result) in zip(group.joined, results.dropFirst()) {
      switch reply {
      case .waiter(let waiter): waiter.resume(returning: .committed(result))
      case .callback(let completion): completion(result)
      }
    }
  }

  /// After a group: hands the lead to the oldest waiting `mutate` caller; a submitted
  /// mutation at the front has no task of its own, so the leader commits its group itself
  /// and looks again. Draining ends when nothing waits.
  func handOffLead() async {
    while let group = leadAtOnce() { await commit(group) }
  }

  /// A submitted mutation's group whose records the store wants awaited (`SceneStore.commit`).
  struct AwaitedGroup {
    fileprivate var group: LedGroup
    fileprivate var records: [CommitRecord]
    fileprivate var leader: Completion
  }

  /// Stores an awaited group, then installs, publishes and answers it.
  func commit(_ awaited: AwaitedGroup) async {
    answer(awaited.group, await commit(awaited.group.plan, awaited.records), leader: awaited.leader)
  }

  /// `handOffLead` without a suspension: commits the groups of submitted mutations at the
  /// front while the store takes them at once, and returns the first it must await (nil
  /// once the lead is handed to a `mutate` caller or nothing waits).
  ///
  /// Synchronous because every isolated async call costs an executor check and a frame, and
  /// every value kept across an `await` an allocation: committing at once
  /// (`SceneStore.commitAtOnce`) took a navd round trip from 62,567 to 58,964 instructions on
  /// the event loop, and leading here rather than in `handOffLead` to 56,891 (58,271 before,
  /// after other work; `bench/profile.sh`).
  func leadAtOnce() -> AwaitedGroup? {
    while !pending.isEmpty {
      let (request, reply) = pending.removeFirst()
      switch reply {
      case .waiter(let waiter):
        waiter.resume(returning: .lead)
        return nil
      case .callback(let completion):
        var group = planGroup(leading: request)
        switch commitAtOnce(&group.plan) {
        case .committed(let results): answer(group, results, leader: completion)
        case .mustAwait(let records): return AwaitedGroup(group: group, records: records, leader: completion)
        }
      }
    }
    draining = false
    return nil
  }

  /// Mutations a group may hold: as many as fit `groupDocumentBytes` given the
  /// largest subscribed view's document, at least one. Publishing a group
  /// builds each view's document once per update — for every version when
  /// each carries events (`UpdateSpans`) — while the view still holds the one
  /// from before the group (`SubscriptionGroup.lastUpdateFrom`, until its next
  /// update), so a group of large documents costs a document more than one
  /// version alone.
  var groupCapacity: Int {
    let largest = groups.values.reduce(0) { max($0, $1.documentBytes) }
    return largest == 0 ? .max : max(1, Self.groupDocumentBytes / largest)
  }

  /// Document bytes one commit group may build per view (PROTOCOL.md §2 "Pipelining"): 1 MiB.
  static let groupDocumentBytes = 1 << 20

  /// The oldest `count` waiting mutations, removed from `pending`. When all of
  /// them are taken (a pipelined burst with no subscribers), the array itself
  /// is handed over: no request is copied.
  private func takePending(upTo count: Int) -> [(MutationRequest, Reply)] {
    if count >= pending.count {
      defer { pending = [] }
      return pending
    }
    let taken = Array(pending.prefix(max(0, count)))
    pending.removeFirst(taken.count)
    return taken
  }

  /// Yields off the actor: jobs already queued on the caller's executor run
  /// first (a yield on the actor would queue the caller ahead of them there).
  @concurrent private nonisolated static func letQueuedCallsIn() async {
    await Task.yield()
  }

  /// Two phases: plans the group as values, awaits the store, and only then
  /// installs and publishes it. While the store works, readers see the state
  /// before the group; when it fails, nothing was installed, and every result
  /// judged with the group's versions in view becomes StorageFailed, so no
  /// one is told of a version that the next group will number again.
  func commitGroup(_ group: [MutationRequest]) async -> [Result<MutationOutcome, NavError>] {
    var plan = planGroup(group)
    switch commitAtOnce(&plan) {
    case .committed(let results): return results
    case .mustAwait(let records): return await commit(plan, records)
    }
  }

  /// How `commitAtOnce` left a planned group.
  private enum AtOnce {
    /// Stored (or failed), installed and published: the group's results.
    case committed([Result<MutationOutcome, NavError>])
    /// Nothing stored: the store wants its records awaited (`commit`).
    case mustAwait([CommitRecord])
  }

  /// Phase two without a suspension when the store takes the group at once
  /// (`SceneStore.commitAtOnce`, navd's redo log): stores, installs and publishes it.
  private func commitAtOnce(_ plan: inout GroupPlan) -> AtOnce {
    guard plan.hasVersions else { return .committed(plan.results) }
    let records = records(for: plan)
    do {
      guard try store.commitAtOnce(records) else { return .mustAwait(records) }
    } catch {
      return .committed(failed(plan, error))
    }
    return .committed(installStored(&plan))
  }

  /// Phase two of `commitGroup`: stores a planned group's `records`, then installs and publishes it.
  private func commit(_ plan: GroupPlan, _ records: [CommitRecord]) async -> [Result<MutationOutcome, NavError>] {
    do {
      try await store.commit(records)
    } catch {
      return failed(plan, error)
    }
    var installed = plan
    return installStored(&installed)
  }

  /// The results of a group the store refused: every one judged with the group's versions in view fails.
  private func failed(_ plan: GroupPlan, _ error: StoreError) -> [Result<MutationOutcome, NavError>] {
    let failure = NavError(
      .storageFailed, "the mutation could not be stored: \(error.message); nothing was applied")
    return zip(plan.results, plan.dependsOnGroup).map { result, dependsOnGroup in
      dependsOnGroup ? .failure(failure) : result
    }
  }

  /// Installs and publishes a stored group; its results. The plan is left holding the state
  /// before the group (`install`).
  private func installStored(_ plan: inout GroupPlan) -> [Result<MutationOutcome, NavError>] {
    guard version == plan.baseVersion else {
      preconditionFailure(
        "scene \(name): version moved from \(plan.baseVersion) to \(version) while a group was being stored")
    }
    install(&plan)
    publish(installed: plan)
    return plan.results
  }

  /// Phase one: every request of the group, in order, judged and applied as values; nothing installed.
  func planGroup(_ group: [MutationRequest]) -> GroupPlan {
    var plan = GroupPlan(state: state, version: version, snapshots: snapshots)
    plan.reserveCapacity(group.count)
    for request in group { self.plan(request, into: &plan) }
    return plan
  }

  /// The store's records for a planned group, every field filled.
  ///
  /// The versions are read in place, field by field (`plan.versions[index]`): a loop over
  /// them copied each whole `GroupPlan.Version` and destroyed it again, ~500 instructions a
  /// version here and as many in `install` (callgrind, `bench/profile.sh`).
  private func records(for plan: GroupPlan) -> [CommitRecord] {
    let forgotten = plan.remembered.isEmpty ? [] : memory.forgottenThrough(afterAdding: plan.remembered.map(\.entry))
    var through = memory.forgottenThrough
    var next = 0
    var records: [CommitRecord] = []
    records.reserveCapacity(plan.versions.count)
    for index in plan.versions.indices {
      let version = plan.versions[index].entry.version
      while next < plan.remembered.count, plan.remembered[next].entry.outcome.version <= version {
        through = forgotten[next]
        next += 1
      }
      records.append(
        CommitRecord(
          scene: name, epoch: epoch, version: version, client: plan.versions[index].entry.client,
          mutationId: plan.versions[index].entry.mutationId, opsDigest: plan.versions[index].opsDigest,
          ops: plan.versions[index].entry.ops, encodedOps: plan.versions[index].encodedOps,
          outcome: plan.versions[index].outcome, snapshot: plan.versions[index].snapshot,
          forgetMutationIdsThrough: through))
    }
    return records
  }

  /// Makes a stored group the scene's state (no `await` between this and publishing it).
  /// The two are swapped: the plan then holds the state before the group, which
  /// `publish(installed:)` reads there.
  ///
  /// Swapped, not copied: copying the plan's state in retained each of its arrays, and
  /// releasing the plan undid it. This and `SceneState.replay` swapping its applier's state
  /// took a round trip's event loop from 50,185 to 49,960 instructions and from 195 retains
  /// and 265 releases to 181 and 257 (`bench/profile.sh`).
  private func install(_ plan: inout GroupPlan) {
    swap(&plan.state, &state)
    version = plan.version
    snapshots = plan.snapshots
    for index in plan.versions.indices { log.append(plan.versions[index].entry) }  // in place, as `records(for:)`
    for (key, entry) in plan.remembered { memory.remember(key, entry) }
  }
}

extension SceneEngine {
  /// Subscribers and action watchers, for server statistics.
  public var subscriberTotal: Int { subscriberCount + watcherCount }

  /// The version and subscriber count, for `ListScenes`.
  public var summary: (version: UInt64, subscribers: Int) { (version, subscriberTotal) }
}
