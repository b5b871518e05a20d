import NavModel

/// The authority for one scene: an actor whose executor is its engine's `SceneExecutor`
/// (navd's event loop), holding the scene as a value (`SceneCore`).
///
/// The actor feeds the core its inputs and performs the effects it returns: it hands the
/// store a group's records, answers each mutation once its group is stored and published,
/// and asks the executor for a turn. The store's completion comes back as an input like any
/// other — at once when the store finished at once (navd's redo log), else as a job on the
/// executor (`StoreWaiter`). There is one commit path; no mutation waits in a task. After a
/// group as large as `EngineConfiguration.groupRecordBytes` the next one waits for the
/// executor's next pass (`SceneExecutor.laterAfterIO`): the loop reads other sockets first.
public actor SceneEngine {
  /// The scene's name.
  public nonisolated let name: String
  /// Names this history of the scene's versions. A navd that starts without the
  /// scene's history (a restart with volatile state) starts a new epoch, so a
  /// client's `sinceVersion` or `baseVersion` from another history is never
  /// judged against this one (PROTOCOL.md, "Epochs").
  public nonisolated let epoch: String
  nonisolated let configuration: EngineConfiguration
  nonisolated let store: any SceneStore
  nonisolated let now: @Sendable () -> Double
  /// The serial executor the scene runs on, shared by every scene of its engine.
  public nonisolated let executor: any SceneExecutor
  var core: SceneCore
  /// When the store was handed the group it is working on (`perform`): its latency is counted
  /// when the result comes (`SceneCounters.commitLatency`).
  var storeStartedAt = 0.0
  /// `whenNotStoring` callers, resumed once no group is being stored.
  private var notStoringWaiters: [CheckedContinuation<Void, Never>] = []

  /// What a submitted mutation is answered with (`submit`), called on the scene's executor.
  public typealias Completion = @Sendable (Result<MutationOutcome, NavError>) -> Void

  /// The executor the actor's jobs run on (SE-0392).
  public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  init(
    name: String, epoch: String, history: SceneHistory, configuration: EngineConfiguration, store: any SceneStore,
    executor: any SceneExecutor, now: @escaping @Sendable () -> Double
  ) {
    self.name = name
    self.epoch = epoch
    self.configuration = configuration
    self.store = store
    self.executor = executor
    self.now = now
    self.core = SceneCore(name: name, epoch: epoch, history: history, configuration: configuration)
  }

  /// A scene at `version` with `state` and nothing stored yet: its first
  /// committed version is stored with a snapshot. With `snapshotStored` (an import) the store
  /// holds `state` at `version` already, and the snapshot schedule counts from it.
  public init(
    name: String, state: SceneState = .empty, version: UInt64 = 0, epoch: String = SceneEngine.newEpoch(),
    snapshotStored: Bool = false, configuration: EngineConfiguration, store: any SceneStore,
    executor: any SceneExecutor = QueueSceneExecutor(), now: @escaping @Sendable () -> Double
  ) {
    self.init(
      name: name, epoch: epoch,
      history: SceneHistory(
        state: state, version: version, snapshotStored: snapshotStored, configuration: configuration),
      configuration: configuration, store: store, executor: executor, now: now)
  }

  /// The current state (after the last committed version).
  public var state: SceneState { core.state }
  /// The last committed version (0: nothing committed yet).
  public var version: UInt64 { core.version }

  /// The current state and its version, read atomically.
  public func snapshot() -> (state: SceneState, version: UInt64) { (core.state, core.version) }

  /// A new random epoch: 16 hex digits.
  public static func newEpoch() -> String {
    let value = UInt64.random(in: 0...UInt64.max)
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Runs `body` on the scene: at once when the caller is on the scene's executor (navd's
  /// loop thread), else as the executor's next job, after the work already queued there.
  /// Work entered from one thread runs in the order it was entered.
  public nonisolated func enter(_ body: @escaping @Sendable (isolated SceneEngine) -> Void) {
    if executor.isCurrent {
      entered(body)
    } else {
      executor.later { self.onLater(body) }
    }
  }

  /// Runs `body` as work the executor runs for `later`, which is on it by construction.
  private nonisolated func onLater(_ body: (isolated SceneEngine) -> Void) {
    precondition(executor.isCurrent, "scene \(name): the executor ran later work off itself")
    entered(body)
  }

  /// Runs `body` isolated to the scene, for a caller that found `executor.isCurrent`: what
  /// `assumeIsolated` does once the runtime has asked the executor the same question
  /// (`isIsolatingCurrentContext`), without asking it a second time on every call.
  private nonisolated func entered(_ body: (isolated SceneEngine) -> Void) {
    typealias Unchecked = (SceneEngine) -> Void
    withoutActuallyEscaping(body) { body in unsafeBitCast(body, to: Unchecked.self)(self) }
  }

  /// Commits `request` and calls `completion` with its result, on the scene's executor, once
  /// its group is stored and published (refusals of the request itself: once its group is
  /// planned). Mutations submitted in order are committed in that order; a pipelined burst
  /// submitted in one turn of the executor is one group.
  public nonisolated func submit(_ request: MutationRequest, completion: @escaping Completion) {
    // `enter`, spelled out: on the executor the request goes in through a closure that does
    // not escape, so it is not copied into a box of its own.
    if executor.isCurrent {
      entered { scene in scene.receive(request, completion) }
    } else {
      executor.later { self.onLater { scene in scene.receive(request, completion) } }
    }
  }

  /// `submit`, for a caller on the scene's executor.
  func receive(_ request: MutationRequest, _ completion: @escaping Completion) {
    perform(core.receive(request, completion))
  }

  /// Commits a mutation and returns its result once it is stored and published: `submit`,
  /// for in-process callers that await (tests, `navbench --engine`).
  public func mutate(_ request: MutationRequest) async -> Result<MutationOutcome, NavError> {
    await withCheckedContinuation { done in receive(request) { done.resume(returning: $0) } }
  }

  /// Performs what the core asked for: answers, then the turn, then the store, whose result
  /// (when it has one at once) is the core's next input.
  private func perform(_ effects: SceneEffects) {
    var effects = effects
    while true {
      effects.giveAnswers()
      if effects.scheduleTurn { executor.later { self.onLater { $0.takeTurn() } } }
      if effects.turnAfterIO { executor.laterAfterIO { self.onLater { $0.takeTurn() } } }
      guard let records = effects.store else { break }
      storeStartedAt = now()
      guard let result = store.commit(records, waiter: self) else { return }
      core.counters.commitLatency.record(now() - storeStartedAt)
      effects = core.stored(result)
    }
    if !notStoringWaiters.isEmpty, core.storing == nil {
      for waiter in notStoringWaiters { waiter.resume() }
      notStoringWaiters = []
    }
  }

  /// Returns once no group is being stored: a group planned before now commits, or fails,
  /// first (`delete`, `replace`).
  func whenNotStoring() async {
    guard core.storing != nil else { return }
    await withCheckedContinuation { notStoringWaiters.append($0) }
  }

  private func takeTurn() { perform(core.turn()) }

  /// The store's result for the group it took, delivered on the executor.
  func finishStore(_ result: Result<Void, StoreError>) {
    core.counters.commitLatency.record(now() - storeStartedAt)
    perform(core.stored(result))
  }
}

extension SceneEngine: StoreWaiter {
  /// The store finished the group it took later than at once: its result becomes the
  /// core's input as the executor's next job.
  public nonisolated func stored(_ result: Result<Void, StoreError>) {
    executor.later { self.onLater { $0.finishStore(result) } }
  }
}

extension SceneEngine {
  /// Subscribers and action watchers, for server statistics.
  public var subscriberTotal: Int { core.subscriberCount + core.watcherCount }

  /// The version and subscriber count, for `ListScenes`.
  public var summary: (version: UInt64, subscribers: Int) { (core.version, subscriberTotal) }
}
