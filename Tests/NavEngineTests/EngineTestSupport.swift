import NavModel
import Synchronization
import Testing

@testable import NavEngine

/// A clock the test moves by hand.
final class ManualClock: Sendable {
  private let seconds = Mutex(1000.0)
  var now: Double { seconds.withLock { $0 } }
  func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
}

/// A store that records every group it is given and can be told to fail.
final class RecordingStore: SceneStore {
  private let state = Mutex<(groups: [[CommitRecord]], failNext: Bool)>(([], false))

  func load() throws(StoreError) -> [StoredScene] { [] }

  func commit(_ records: [CommitRecord], waiter: any StoreWaiter) -> Result<Void, StoreError>? {
    let fail = state.withLock { s -> Bool in
      if s.failNext {
        s.failNext = false
        return true
      }
      s.groups.append(records)
      return false
    }
    return fail ? .failure(StoreError(.full, "disk full")) : .success(())
  }

  func failNextCommit() { state.withLock { $0.failNext = true } }
  var groups: [[CommitRecord]] { state.withLock { $0.groups } }
}

/// Ops and states the engine tests share.
enum Sample {
  static func item(_ id: String, title: String? = nil) -> NavigationItem { NavigationItem(id: id, title: title ?? id) }

  static func button(_ id: String, title: String? = nil) -> Op {
    .defineBarButtonItem(BarButtonItem(id: id, title: title ?? id))
  }

  static func title(_ id: String, _ title: String?) -> Op {
    .updateNavigationItem(id, [.title(title)], animated: false)
  }

  static func request(
    _ ops: [Op], base: UInt64? = nil, client: String = "a", policy: ConflictPolicy = .lastWriterWins,
    mutationId: String? = nil
  ) -> MutationRequest {
    MutationRequest(ops: ops, baseVersion: base, mutationId: mutationId, policy: policy, client: client)
  }
}

/// Results as completions get them, by position, for a test that reads them afterwards.
final class Answers: Sendable {
  private let results = Mutex<[Int: Result<MutationOutcome, NavError>]>([:])

  /// A completion that records its result at `index`; a second call records an issue.
  func completion(_ index: Int) -> SceneEngine.Completion {
    { result in
      let again = self.results.withLock { $0.updateValue(result, forKey: index) != nil }
      if again { Issue.record("mutation \(index) was answered twice") }
    }
  }

  /// The result at `index`, nil while unanswered.
  subscript(_ index: Int) -> Result<MutationOutcome, NavError>? { results.withLock { $0[index] } }

  /// How many were answered.
  var count: Int { results.withLock { $0.count } }
}

extension SceneEngine {
  /// The core's op log, remembered ids and snapshot schedule, for tests.
  var log: OpLog { core.log }
  var memory: MutationMemory { core.memory }
  var snapshots: SnapshotSchedule { core.snapshots }
  var subscriberCount: Int { core.subscriberCount }

  /// `requests` planned in order as one group on the current state, as a turn plans them;
  /// nothing is installed.
  func planned(_ requests: [MutationRequest]) -> GroupPlan {
    var plan = GroupPlan(state: core.state, version: core.version, snapshots: core.snapshots)
    for request in requests { core.plan(request, into: &plan) }
    return plan
  }

  /// Receives `requests` in one turn of the executor, so that they form one group (as far
  /// as `groupCapacity` lets them), and returns their results in order.
  func commitGroup(_ requests: [MutationRequest]) async -> [Result<MutationOutcome, NavError>] {
    let answers = Answers()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      guard !requests.isEmpty else { return done.resume() }
      for (index, request) in requests.enumerated() {
        let record = answers.completion(index)
        receive(request) { result in
          record(result)
          if answers.count == requests.count { done.resume() }
        }
      }
    }
    return requests.indices.map { answers[$0]! }
  }

  /// Mutates and expects success.
  @discardableResult
  func commit(_ request: MutationRequest, sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> MutationOutcome
  {
    try await mutate(request).get()
  }

  /// Mutates and expects the error code.
  func expectFailure(
    _ request: MutationRequest, _ code: NavError.Code, sourceLocation: SourceLocation = #_sourceLocation
  )
    async -> NavError?
  {
    switch await mutate(request) {
    case .success(let outcome):
      Issue.record("expected \(code), committed version \(outcome.version)", sourceLocation: sourceLocation)
      return nil
    case .failure(let error):
      #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
      return error
    }
  }
}

func makeScene(
  store: any SceneStore = VolatileSceneStore(), executor: any SceneExecutor = QueueSceneExecutor(),
  clock: ManualClock = ManualClock(), configure: (inout EngineConfiguration) -> Void = { _ in }
)
  -> SceneEngine
{
  var configuration = EngineConfiguration()
  configure(&configuration)
  return SceneEngine(
    name: "main", configuration: configuration, store: store, executor: executor, now: { clock.now })
}
