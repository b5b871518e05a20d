import NavEngine
import Synchronization
import Testing

/// A store that holds every commit until the test releases it, announcing
/// each group as it arrives, so a test can act while a group is being stored.
final class GatedStore: SceneStore {
  private let gates = Mutex<[CheckedContinuation<StoreError?, Never>]>([])
  private let announce: AsyncStream<[CommitRecord]>.Continuation
  /// Every group, as it reaches the store (before it is released).
  let arrivals: AsyncStream<[CommitRecord]>

  init() { (arrivals, announce) = AsyncStream.makeStream() }

  func load() throws(StoreError) -> [StoredScene] { [] }

  nonisolated(nonsending) func commit(_ records: [CommitRecord]) async throws(StoreError) {
    let failure = await withCheckedContinuation { gate in
      gates.withLock { $0.append(gate) }
      announce.yield(records)
    }
    if let failure { throw failure }
  }

  /// Lets the oldest held group finish, or fail with `failure`.
  func release(failing failure: StoreError? = nil) {
    let gate = gates.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    guard let gate else {
      Issue.record("release() with no group held")
      return
    }
    gate.resume(returning: failure)
  }
}
