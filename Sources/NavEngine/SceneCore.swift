import NavModel

/// One scene as a value: its state, version, op log, remembered ids, subscriptions and the
/// mutations waiting to be committed. `SceneEngine` (the actor) holds one and feeds it its
/// inputs — a mutation arrives (`receive`), the executor gives it a turn (`turn`), the store
/// finished a group (`stored`) — and performs the effects each returns (`SceneEffects`): the
/// records to store, the answers to give, a turn to ask for.
///
/// Mutations are committed in groups, by one path: everything that arrived while the
/// previous group was being stored is planned in order (up to `groupCapacity`, and until the
/// group's ops reach `EngineConfiguration.groupRecordBytes`), stored as one group, installed,
/// published to subscribers, and only then answered. A read while a group is stored sees the
/// state before it. When the scene is idle, the first mutation asks for a turn rather than
/// starting a group, so the calls the loop reads in the same pass — a pipelined burst —
/// reach the scene first and form one group. After a group that reached the byte bound the
/// rest wait for a turn in the executor's next pass (`SceneEffects.turnAfterIO`), so the loop
/// serves other connections between two large groups.
struct SceneCore {
  /// What a mutation is answered with, once its group is stored and published.
  typealias Completion = SceneEngine.Completion

  /// Mutations in arrival order, each with who waits for its result.
  typealias Waiting = [(request: MutationRequest, completion: Completion)]

  /// A group being stored, and the mutations it was planned from (their completions wait).
  struct StoringGroup {
    var plan: GroupPlan
    var waiting: Waiting
  }

  let name: String
  let epoch: String
  let configuration: EngineConfiguration

  /// The current state (after the last committed version).
  var state: SceneState
  /// The last committed version (0: nothing committed yet).
  var version: UInt64
  var log: OpLog
  var memory: MutationMemory
  var snapshots: SnapshotSchedule
  var groups: [DocumentView: ViewChannel] = [:]
  /// The views' documents, bounded in bytes (`EngineConfiguration.layoutCacheBytes`).
  let layoutCache: LayoutCache
  var actionWatchers: [UInt64: Subscriber] = [:]
  /// Mutations received and not yet planned, oldest first.
  var waiting: Waiting = []
  /// The group the store is working on; nil while none is.
  var storing: StoringGroup?
  /// Whether a turn was asked for and has not come yet.
  var turnScheduled = false
  /// Set by `SceneEngine.delete`: this history has ended; every mutation planned from now on
  /// is refused (`deletedWhileQueued`).
  var deleted = false
  /// Set with `deleted` by `SceneEngine.replace`: the history ended for an imported one
  /// (`replacedWhileQueued`).
  var replaced = false
  /// What the scene counted since it started (`GetStatistics`): plain additions as it plans,
  /// installs and publishes.
  var counters = SceneCounters()

  init(name: String, epoch: String, history: SceneHistory, configuration: EngineConfiguration) {
    self.name = name
    self.epoch = epoch
    self.state = history.state
    self.version = history.version
    self.log = history.log
    self.memory = history.memory
    self.snapshots = history.snapshots
    self.configuration = configuration
    layoutCache = LayoutCache(limit: configuration.layoutCacheBytes)
  }

  /// A mutation arrived: it waits for the next group. An idle scene asks for a turn.
  mutating func receive(_ request: MutationRequest, _ completion: @escaping Completion) -> SceneEffects {
    waiting.append((request, completion))
    guard storing == nil, !turnScheduled else { return SceneEffects() }
    turnScheduled = true
    return SceneEffects(scheduleTurn: true)
  }

  /// The turn asked for by `receive`: plans the waiting mutations, unless a group is being
  /// stored (it then plans them once it is stored).
  mutating func turn() -> SceneEffects {
    turnScheduled = false
    var effects = SceneEffects()
    if storing == nil { planNext(into: &effects) }
    return effects
  }

  /// The store finished the group it was given: installs and publishes it when stored, and
  /// answers it either way; then plans what arrived meanwhile, or, after a group that
  /// reached `groupRecordBytes`, asks for a turn after the executor's I/O to plan it.
  mutating func stored(_ result: Result<Void, StoreError>) -> SceneEffects {
    // Taken, not copied: a copy of the plan would retain every array it holds.
    guard var group = storing.take() else {
      preconditionFailure("scene \(name): a store result with no group being stored")
    }
    let results: [Result<MutationOutcome, NavError>]
    switch result {
    case .success: results = installStored(&group.plan)
    case .failure(let error):
      results = failed(group.plan, error)
      counters.refuse(.storageFailed, count: group.plan.dependsOnGroup.count { $0 })
    }
    var effects = SceneEffects()
    effects.answer(group.waiting, results)
    if group.plan.recordBytes >= configuration.groupRecordBytes, !waiting.isEmpty {
      turnScheduled = true
      effects.turnAfterIO = true
    } else {
      planNext(into: &effects)
    }
    return effects
  }

  /// Plans groups from the waiting mutations: answers those that commit nothing at once, and
  /// stops at the first group with versions, which goes to the store.
  private mutating func planNext(into effects: inout SceneEffects) {
    while !waiting.isEmpty {
      let group = planWaiting()
      guard group.plan.hasVersions else {
        effects.answer(group.waiting, group.plan.results)
        continue
      }
      effects.store = records(for: group.plan)
      storing = group
      return
    }
  }

  /// The oldest waiting mutations, as many as a group may hold, planned in order: up to
  /// `groupCapacity`, and the group ends with the mutation whose ops bring it to
  /// `groupRecordBytes` (the rest wait, first in line).
  private mutating func planWaiting() -> StoringGroup {
    let capacity = groupCapacity
    var taken: Waiting = []
    if capacity >= waiting.count {
      swap(&taken, &waiting)  // the whole queue: no request is copied
    } else {
      taken = Array(waiting.prefix(capacity))
      waiting.removeFirst(capacity)
    }
    var plan = GroupPlan(state: state, version: version, snapshots: snapshots)
    plan.reserveCapacity(taken.count)
    let recordBytes = configuration.groupRecordBytes
    for index in taken.indices {
      self.plan(taken[index].request, into: &plan)
      if plan.recordBytes >= recordBytes, index + 1 < taken.count {
        waiting.insert(contentsOf: taken[(index + 1)...], at: 0)
        taken.removeSubrange((index + 1)...)
        break
      }
    }
    return StoringGroup(plan: plan, waiting: taken)
  }

  /// Mutations a group may hold: as many as fit `groupDocumentBytes` given the
  /// largest subscribed view's document, at least one. Publishing a group
  /// builds each view's document once per update — for every version when
  /// each carries events (`UpdateSpans`) — while the view still holds the one
  /// from before the group (`SubscriptionGroup.lastUpdateFrom`, until its next
  /// update), so a group of large documents costs a document more than one
  /// version alone.
  var groupCapacity: Int {
    let largest = groups.values.reduce(0) { largest, channel in max(largest, channel.withGroup(\.documentBytes)) }
    return largest == 0 ? .max : max(1, Self.groupDocumentBytes / largest)
  }

  /// Document bytes one commit group may build per view (PROTOCOL.md §2 "Pipelining"): 1 MiB.
  static let groupDocumentBytes = 1 << 20

  /// The results of a group the store refused: every one judged with the group's versions in
  /// view fails. Nothing was installed, so no one is told of a version the next group numbers again.
  private func failed(_ plan: GroupPlan, _ error: StoreError) -> [Result<MutationOutcome, NavError>] {
    let failure = NavError(
      .storageFailed, "the mutation could not be stored: \(error.message); nothing was applied")
    return zip(plan.results, plan.dependsOnGroup).map { result, dependsOnGroup in
      dependsOnGroup ? .failure(failure) : result
    }
  }

  /// Installs and publishes a stored group; its results. The plan is left holding the state
  /// before the group (`install`).
  private mutating func installStored(_ plan: inout GroupPlan) -> [Result<MutationOutcome, NavError>] {
    guard version == plan.baseVersion else {
      preconditionFailure(
        "scene \(name): version moved from \(plan.baseVersion) to \(version) while a group was being stored")
    }
    install(&plan)
    publish(installed: plan)
    return plan.results
  }

  /// The store's records for a planned group, every field filled.
  ///
  /// The versions are read in place, field by field (`plan.versions[index]`): a loop over
  /// them would copy each whole `GroupPlan.Version` and destroy it again.
  func records(for plan: GroupPlan) -> [CommitRecord] {
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

  /// Makes a stored group the scene's state (nothing runs between this and publishing it).
  /// The two are swapped, not copied (a copy would retain each of the state's arrays): the
  /// plan then holds the state before the group, which `publish(installed:)` reads there.
  private mutating func install(_ plan: inout GroupPlan) {
    swap(&plan.state, &state)
    version = plan.version
    snapshots = plan.snapshots
    counters.mutations += plan.versions.count
    for index in plan.versions.indices { log.append(plan.versions[index].entry) }  // in place, as `records(for:)`
    for (key, entry) in plan.remembered { memory.remember(key, entry) }
  }
}

/// What `SceneEngine` does after its core took an input: answers first, in order, then the
/// turn, then the store.
struct SceneEffects {
  /// Mutations of one group and their results, pairwise.
  struct Answers {
    var waiting: SceneCore.Waiting
    var results: [Result<MutationOutcome, NavError>]
  }

  /// The first group's answers, and those of the groups after it (planned in the same
  /// input, none of them with a version to store): kept apart so that the usual effect,
  /// one group's answers, allocates nothing of its own.
  var answers: Answers?
  var laterAnswers: [Answers] = []
  /// A group's records to store; the core then waits for `SceneCore.stored`.
  var store: [CommitRecord]?
  /// Ask the executor for a turn (`SceneCore.turn`) after the work already queued on it.
  var scheduleTurn = false
  /// Ask the executor for a turn once it has served its I/O (`SceneExecutor.laterAfterIO`):
  /// the group just stored reached `groupRecordBytes` and more mutations wait.
  var turnAfterIO = false

  /// Answers `waiting` with `results`, pairwise, after the answers already listed.
  mutating func answer(_ waiting: SceneCore.Waiting, _ results: [Result<MutationOutcome, NavError>]) {
    if answers == nil {
      answers = Answers(waiting: waiting, results: results)
    } else {
      laterAnswers.append(Answers(waiting: waiting, results: results))
    }
  }

  /// Calls every completion with its result, in order.
  func giveAnswers() {
    guard let answers else { return }
    answers.give()
    for later in laterAnswers { later.give() }
  }
}

extension SceneEffects.Answers {
  /// Calls each mutation's completion with its result.
  func give() {
    for index in waiting.indices { waiting[index].completion(results[index]) }
  }
}
