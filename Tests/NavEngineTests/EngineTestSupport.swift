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

/// A subscriber whose frames the test pulls and decodes, as a connection would.
final class TestSubscriber: Sendable {
  /// What the subscriber told its connection: wake-ups and a disconnect reason.
  final class Signals: Sendable {
    let wakes = Atomic<Int>(0)
    let disconnectReason = Mutex<String?>(nil)
  }

  let subscriber: Subscriber
  let signals = Signals()

  init(id: UInt64, queueLimit: Int = 1 << 20, stallSeconds: Double = 60) {
    let signals = self.signals
    subscriber = Subscriber(
      id: id, queueLimit: queueLimit, stallSeconds: stallSeconds,
      frame: { parameters, out in
        out.append(contentsOf: parameters)
        out.append(0)
      },
      wake: { signals.wakes.add(1, ordering: .relaxed) },
      disconnect: { reason in signals.disconnectReason.withLock { $0 = reason } })
  }

  /// Everything pending, as decoded reply parameters.
  func pull() throws -> [JSONValue] {
    let bytes = subscriber.pull()
    return try bytes.split(separator: 0, omittingEmptySubsequences: true).map { try JSONParser.parse($0) }
  }

  var disconnectReason: String? { signals.disconnectReason.withLock { $0 } }
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
