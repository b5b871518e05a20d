import NavEngine
import NavModel
import Synchronization
import Testing

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

  nonisolated(nonsending) func commit(_ records: [CommitRecord]) async throws(StoreError) {
    let fail = state.withLock { s -> Bool in
      if s.failNext {
        s.failNext = false
        return true
      }
      s.groups.append(records)
      return false
    }
    if fail { throw StoreError(.full, "disk full") }
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

extension SceneEngine {
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
  store: any SceneStore = VolatileSceneStore(), clock: ManualClock = ManualClock(),
  configure: (inout EngineConfiguration) -> Void = { _ in }
)
  -> SceneEngine
{
  var configuration = EngineConfiguration()
  configure(&configuration)
  return SceneEngine(name: "main", configuration: configuration, store: store, now: { clock.now })
}
