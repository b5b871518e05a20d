import NavEngine
import Synchronization

/// A store that finishes every group later, when the test says so (`finish`), as navd's
/// store does at `--durability full`: it keeps the records and the waiter, and stores
/// nothing itself.
final class LaterStore: SceneStore {
  private let held = Mutex<[(records: [CommitRecord], waiter: any StoreWaiter)]>([])

  func load() throws(StoreError) -> [StoredScene] { [] }

  func commit(_ records: [CommitRecord], waiter: any StoreWaiter) -> Result<Void, StoreError>? {
    held.withLock { $0.append((records, waiter)) }
    return nil
  }

  /// The versions of each group handed over and not finished yet, oldest first.
  var groups: [[UInt64]] { held.withLock { $0.map { $0.records.map(\.version) } } }

  /// Tells the oldest held group's waiter it is stored, or failed with `failure`; false when none is held.
  @discardableResult
  func finish(failing failure: StoreError? = nil) -> Bool {
    guard let group = held.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return false }
    group.waiter.stored(failure.map { .failure($0) } ?? .success(()))
    return true
  }
}

/// A scene on a `ManualSceneExecutor` over a `LaterStore`: the test submits, turns the executor
/// and finishes groups by hand, and reads each answer by the index it submitted with.
struct HeldScene {
  let executor = ManualSceneExecutor()
  let store = LaterStore()
  let answers = Answers()
  let scene: SceneEngine

  init(configure: (inout EngineConfiguration) -> Void = { _ in }) {
    scene = makeScene(store: store, executor: executor, configure: configure)
  }

  /// Submits `request`, answered at `index`, and gives the scene its turn.
  func submit(_ request: MutationRequest, _ index: Int) {
    scene.submit(request, completion: answers.completion(index))
    executor.runAll()
  }

  /// Finishes the oldest held group (or fails it) and runs what that delivers.
  func finish(failing failure: StoreError? = nil) {
    store.finish(failing: failure)
    executor.runAll()
  }

  /// `body` on the scene, as a call on its executor.
  func read<T: Sendable>(_ body: (isolated SceneEngine) throws -> T) rethrows -> T {
    try executor.onExecutor { try scene.assumeIsolated(body) }
  }
}
